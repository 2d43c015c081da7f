package org.salgate.agent.session;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
import org.salgate.model.Operation;
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
    private final Map<Operation, Typed<?>> handlers = new EnumMap<>(Operation.class);

    public RequestDispatcher(SensorManager sensors, ProtocolManager protocols, StreamRegistry streams, EventBus events,
                             int maxStreamsPerSession) {
        this.sensors = sensors;
        this.protocols = protocols;
        this.streams = streams;
        this.events = events;
        this.maxStreamsPerSession = maxStreamsPerSession;
        registerHandlers();
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
     * the transport's I/O thread; the others run on the worker pool. Each operation declares it.
     */
    public boolean runsInline(Call call) {
        return Operation.of(call).inline();
    }

    /** Whether a call writes a device's channel, which only an admin may do. */
    public boolean writesDevice(Call call) {
        return call instanceof Call.Execute e && sensors.writesDevice(e.sensorId(), e.commandId());
    }

    /**
     * Handles a call that waits for a device without holding a thread: an execute of a sensor on a
     * device's lane, answered when the device answers or its deadline passes. Null for every other
     * call, which {@link #handle} answers.
     */
    public CompletableFuture<Result> handleLater(Call call) {
        if (!(call instanceof Call.Execute c)) {
            return null;
        }
        Optional<SensorEntry> sensor = sensors.find(c.sensorId());
        if (sensor.isEmpty() || !sensors.onDeviceLane(sensor.get())) {
            return null;
        }
        try {
            return sensors.executeLater(c.sensorId(), c.commandId(), c.arguments()).thenApply(Result.ReadingResult::new);
        } catch (CallException e) {
            return CompletableFuture.completedFuture(new Result.Failure(e.code(), e.getMessage()));
        }
    }

    /** Handles one call of a session. */
    public Result handle(Session session, Call call) throws CallException {
        return handlers.get(Operation.of(call)).handle(session, call);
    }

    /** What answers one operation. */
    @FunctionalInterface
    private interface Handler<C extends Call> {
        Result handle(Session session, C call) throws CallException;
    }

    /** A handler of calls of any type, which casts to the one it was registered for. */
    private record Typed<C extends Call>(Class<C> type, Handler<C> handler) {
        Result handle(Session session, Call call) throws CallException {
            return handler.handle(session, type.cast(call));
        }
    }

    private <C extends Call> void on(Class<C> type, Handler<C> handler) {
        if (handlers.putIfAbsent(Operation.ofType(type), new Typed<>(type, handler)) != null) {
            throw new IllegalStateException(type.getSimpleName() + " has two handlers");
        }
    }

    /** A transport-level probe: the agent answers the SAL API only. */
    private <C extends Call> void refuse(Class<C> type, String label) {
        on(type, (session, c) -> {
            throw new CallException(ErrorCode.UNSUPPORTED, "'" + label + "' is a transport-level probe, which an "
                    + "agent does not answer; to check that the agent serves this connection, list its sensors.");
        });
    }

    /**
     * One handler for every declared operation, and a refusal for every probe; a missing handler
     * stops the agent from being built.
     */
    private void registerHandlers() {
        on(Call.ListSensors.class, (session, c) -> new Result.Sensors(sensors.list(c.activeOnly())));
        on(Call.DescribeSensor.class, (session, c) -> new Result.Document(sensors.describe(c.sensorId())));
        on(Call.AddSensor.class, (session, c) -> new Result.Sensor(sensors.addSensor(c.sensorMl(), protocols)));
        on(Call.RemoveSensor.class, (session, c) -> {
            sensors.removeSensor(c.sensorId());
            return ack();
        });
        on(Call.ListCommands.class, (session, c) -> new Result.Document(sensors.commandsXml(c.sensorId())));
        on(Call.Execute.class, (session, c) ->
                new Result.ReadingResult(sensors.execute(c.sensorId(), c.commandId(), c.arguments())));
        on(Call.SetupStream.class, this::setUp);
        on(Call.StartStream.class, (session, c) -> start(session, c.streamId()));
        on(Call.StopStream.class, (session, c) -> {
            ServedStream stream = stream(session, c.streamId());
            stream.stop();
            return new Result.StreamStopped(stream.counts());
        });
        on(Call.ListProtocols.class, (session, c) -> new Result.Protocols(protocols.list()));
        on(Call.AddProtocol.class, (session, c) -> new Result.Protocols(protocols.addPcml(c.pcml())));
        on(Call.RemoveProtocol.class, (session, c) -> {
            protocols.remove(c.name());
            return ack();
        });
        on(Call.GetPlatformConfig.class, (session, c) -> new Result.Document(protocols.configXml()));
        on(Call.SubscribeEvents.class, (session, c) -> {
            EventSubscription subscription = new EventSubscription(session);
            subscriptions.put(session.id(), subscription);
            events.subscribe(session.id(), subscription);
            return ack();
        });
        on(Call.UnsubscribeEvents.class, (session, c) -> {
            forgetSubscription(session.id());
            return ack();
        });
        for (Operation o : Operation.values()) {
            if (o.probe()) {
                refuse(o.callType(), o.label());
            } else if (!handlers.containsKey(o)) {
                throw new IllegalStateException("operation " + o + " has no handler in the agent's dispatcher");
            }
        }
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
        if (c.intervalMs() == 0 && sensors.onDeviceLane(sensor)) {
            throw new CallException(ErrorCode.INVALID_ARGUMENT, "sensor " + sensor.id() + " is read on a device,"
                    + " which a stream at interval 0 would poll flat out; choose an interval of at least 1 ms");
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
