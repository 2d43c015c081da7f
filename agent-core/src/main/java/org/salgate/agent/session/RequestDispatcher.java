package org.salgate.agent.session;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.agent.core.ArgumentChecker;
import org.salgate.agent.core.CallException;
import org.salgate.agent.core.Counts;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.core.ProtocolManager;
import org.salgate.agent.core.SensorEntry;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.stream.ServedStream;
import org.salgate.agent.stream.StreamRegistry;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;

/**
 * Maps each SAL {@link Call} of a session to the communication layer and back to a
 * {@link Result}. Failures the client should see are thrown as {@link CallException}s.
 */
public final class RequestDispatcher {

    private final SensorManager sensors;
    private final ProtocolManager protocols;
    private final StreamRegistry streams;
    private final EventBus events;
    private final int maxStreamsPerSession;
    private final Map<Long, EventSubscription> subscriptions = new ConcurrentHashMap<>();

    public RequestDispatcher(SensorManager sensors, ProtocolManager protocols, StreamRegistry streams, EventBus events,
                             int maxStreamsPerSession) {
        this.sensors = sensors;
        this.protocols = protocols;
        this.streams = streams;
        this.events = events;
        this.maxStreamsPerSession = maxStreamsPerSession;
    }

    /** The session can take frames again: its streams resume and its event subscription reports a gap. */
    public void writable(long sessionId) {
        streams.writable(sessionId);
        EventSubscription subscription = subscriptions.get(sessionId);
        if (subscription != null) {
            subscription.writable();
        }
    }

    /** Whether a session is subscribed to events. */
    public boolean hasSubscription(long sessionId) {
        return subscriptions.containsKey(sessionId);
    }

    /** Ends a session's event subscription, if it has one. */
    public void forgetSubscription(long sessionId) {
        events.unsubscribe(sessionId);
        subscriptions.remove(sessionId);
    }

    /**
     * Whether a call is cheap and never blocks (no plugin call, no XML), so that it may run on
     * the transport's I/O thread; the others run on the worker pool.
     */
    public boolean runsInline(Call call) {
        return call instanceof Call.Echo || call instanceof Call.EchoReading || call instanceof Call.ListSensors
                || call instanceof Call.ListProtocols || call instanceof Call.SetupStream
                || call instanceof Call.StartStream || call instanceof Call.StopStream
                || call instanceof Call.SubscribeEvents || call instanceof Call.UnsubscribeEvents;
    }

    /** Handles one call of a session. */
    public Result handle(Session session, Call call) throws CallException {
        if (call instanceof Call.Echo c) {
            return new Result.Echoed(c.payload());
        } else if (call instanceof Call.EchoReading c) {
            return new Result.ReadingResult(c.reading());
        } else if (call instanceof Call.ListSensors c) {
            return new Result.Sensors(sensors.list(c.activeOnly()));
        } else if (call instanceof Call.DescribeSensor c) {
            return new Result.Document(sensors.describe(c.sensorId()));
        } else if (call instanceof Call.AddSensor c) {
            return new Result.Sensor(sensors.addSensor(c.sensorMl(), protocols));
        } else if (call instanceof Call.RemoveSensor c) {
            sensors.removeSensor(c.sensorId());
            return ack();
        } else if (call instanceof Call.ListCommands c) {
            return new Result.Document(sensors.commandsXml(c.sensorId()));
        } else if (call instanceof Call.Execute c) {
            return new Result.ReadingResult(sensors.execute(c.sensorId(), c.commandId(), c.arguments()));
        } else if (call instanceof Call.SetupStream c) {
            return setUp(session, c);
        } else if (call instanceof Call.StartStream c) {
            return start(session, c.streamId());
        } else if (call instanceof Call.StopStream c) {
            ServedStream stream = stream(session, c.streamId());
            stream.stop();
            return new Result.StreamStopped(stream.counts());
        } else if (call instanceof Call.ListProtocols) {
            return new Result.Protocols(protocols.list());
        } else if (call instanceof Call.AddProtocol c) {
            return new Result.Protocols(protocols.addPcml(c.pcml()));
        } else if (call instanceof Call.RemoveProtocol c) {
            protocols.remove(c.name());
            return ack();
        } else if (call instanceof Call.GetPlatformConfig) {
            return new Result.Document(protocols.configXml());
        } else if (call instanceof Call.SubscribeEvents) {
            EventSubscription subscription = new EventSubscription(session);
            subscriptions.put(session.id(), subscription);
            events.subscribe(session.id(), subscription);
            return ack();
        } else if (call instanceof Call.UnsubscribeEvents) {
            forgetSubscription(session.id());
            return ack();
        }
        throw new CallException(ErrorCode.UNSUPPORTED, "this agent does not support "
                + call.getClass().getSimpleName());
    }

    private Result setUp(Session session, Call.SetupStream c) throws CallException {
        SensorEntry sensor = sensors.get(c.sensorId());
        CommandDescription command = sensors.command(sensor, c.commandId());
        SamplingBounds bounds = command.streaming();
        if (bounds == null) {
            throw new CallException(ErrorCode.UNSUPPORTED, "command '" + command.id() + "' of sensor " + sensor.id()
                    + " cannot be streamed; execute it instead");
        }
        if (!bounds.contains(c.intervalMs())) {
            throw new CallException(ErrorCode.INVALID_ARGUMENT, "interval " + c.intervalMs() + " ms is outside "
                    + "the bounds of command '" + command.id() + "' of sensor " + sensor.id() + ": choose from "
                    + bounds.minIntervalMs() + " to " + bounds.maxIntervalMs() + " ms");
        }
        Map<String, String> arguments = ArgumentChecker.check(sensor.id(), command, c.arguments());
        Optional<ServedStream> created;
        if (c.shared()) {
            if (c.intervalMs() == 0) {
                throw new CallException(ErrorCode.INVALID_ARGUMENT, "a shared stream needs an interval above 0 ms:"
                        + " at 0 each client sets the pace of a stream of its own");
            }
            try {
                created = streams.subscribe(session, sensor.id(), command.id(), arguments, c.intervalMs(),
                        () -> new CommandSource(sensors, sensor, command.id(), arguments), c.policy(),
                        maxStreamsPerSession);
            } catch (IllegalStateException e) {
                throw new CallException(ErrorCode.CONFLICT, e.getMessage());
            }
        } else {
            created = streams.create(session, new CommandSource(sensors, sensor, command.id(), arguments),
                    c.intervalMs(), c.policy(), maxStreamsPerSession);
        }
        ServedStream stream = created.orElseThrow(() -> new CallException(ErrorCode.OVERLOADED, "this connection has "
                + Counts.of(maxStreamsPerSession, "stream") + " already; stop some before setting up another"));
        return new Result.StreamHandle(stream.id(), stream.policy());
    }

    private Result start(Session session, long streamId) throws CallException {
        return start(session, streamId, () -> { });
    }

    /**
     * Starts a stream, running {@code sendAnswer} before its first frame can be sent, so that the
     * client always gets the answer to its start request first.
     *
     * @throws CallException when the stream is unknown, started already, or its sensor is gone;
     *                       {@code sendAnswer} did not run then
     */
    public Result start(Session session, long streamId, Runnable sendAnswer) throws CallException {
        ServedStream stream = stream(session, streamId);
        if (sensors.find(stream.sensorId()).isEmpty()) {
            stream.end("sensor " + stream.sensorId() + " was removed");
            throw new CallException(ErrorCode.UNKNOWN_SENSOR, "sensor " + stream.sensorId()
                    + " of stream " + streamId + " was removed");
        }
        if (!stream.start(sendAnswer)) {
            throw new CallException(ErrorCode.CONFLICT, "stream " + streamId + " is started already");
        }
        return ack();
    }

    private ServedStream stream(Session session, long streamId) throws CallException {
        return streams.find(session.id(), streamId).orElseThrow(() -> new CallException(ErrorCode.UNKNOWN_STREAM,
                "there is no stream " + streamId + " on this connection; it may have ended already"));
    }

    private static Result ack() {
        return Result.ack();
    }
}
