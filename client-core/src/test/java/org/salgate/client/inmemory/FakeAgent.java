package org.salgate.client.inmemory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.model.Value;

/**
 * A scripted agent on the in-memory transport: answers the hello and every call with canned
 * results (overridable per call type), records the calls it got, and can push stream frames,
 * stream ends and events. Its sensors: DUMMY_0, DUMMY_1 (streaming) and freeMemory. A shared
 * set-up gets the one id of its (sensor, command, arguments, interval), as the agent's shared
 * streams do, and is refused at interval 0 and when the connection joined that stream already.
 */
public final class FakeAgent implements ServerHandler, AutoCloseable {

    public static final long TIMESTAMP_MICROS = 1_700_000_000_123_456L;
    public static final String SENSOR_ML = "<sml:PhysicalComponent xmlns:sml=\"http://www.opengis.net/sensorml/2.0\"/>";
    public static final String CML = "<cml:commands xmlns:cml=\"urn:salgate:cml\"/>";
    public static final String PCML = "<pcml:platform xmlns:pcml=\"urn:salgate:pcml\"/>";

    private final TransportServer server;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final Map<Class<?>, Function<Call, Result>> answers = new ConcurrentHashMap<>();
    private final Set<Class<?>> silent = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextStreamId = new AtomicLong(100);
    private final Map<List<Object>, Long> sharedStreams = new ConcurrentHashMap<>();
    private final Map<Session, Set<Long>> joined = new ConcurrentHashMap<>();
    private volatile long sharedSequence;
    private volatile String refusal;
    private volatile boolean silentOnHello;
    private volatile Hello lastHello;
    private volatile int framesOnStart;
    private volatile String unit = "";
    private volatile List<Event> eventsOnSubscribe = List.of();

    private FakeAgent(TransportProvider transport) throws IOException {
        server = transport.createServer(ServerOptions.builder().port(0).build());
        server.start(this);
    }

    /** A fake agent on the in-memory transport. */
    public static FakeAgent start() throws IOException {
        return new FakeAgent(new InMemoryTransport());
    }

    /** A fake agent on a real transport, on 127.0.0.1 and a free port. */
    public static FakeAgent start(TransportProvider transport) throws IOException {
        return new FakeAgent(transport);
    }

    public int port() {
        return server.localAddress().getPort();
    }

    /** Refuses every hello with this reason. */
    public FakeAgent refuseHello(String reason) {
        this.refusal = reason;
        return this;
    }

    /** Never answers a hello: the connection is accepted and the agent stays silent. */
    public FakeAgent silentOnHello() {
        this.silentOnHello = true;
        return this;
    }

    /** The last hello received, or null. */
    public Hello lastHello() {
        return lastHello;
    }

    /** Answers calls of this type with {@code answer} instead of the canned result. */
    @SuppressWarnings("unchecked")
    public <C extends Call> FakeAgent answer(Class<C> type, Function<C, Result> answer) {
        answers.put(type, call -> answer.apply((C) call));
        return this;
    }

    /** Never answers calls of this type. */
    public FakeAgent silentOn(Class<? extends Call> type) {
        silent.add(type);
        return this;
    }

    /** The unit of the readings of {@code read} and of the streams (none by default). */
    public FakeAgent unit(String readingUnit) {
        this.unit = readingUnit;
        return this;
    }

    /** On StartStream, pushes this many readings of the stream before answering. */
    public FakeAgent framesOnStart(int n) {
        this.framesOnStart = n;
        return this;
    }

    /** The sequence the shared streams are at: {@link #framesOnStart} of a shared stream start there. */
    public FakeAgent sharedStreamsAt(long sequence) {
        this.sharedSequence = sequence;
        return this;
    }

    /** On SubscribeEvents, pushes these events right after the answer. */
    public FakeAgent eventsOnSubscribe(List<Event> events) {
        this.eventsOnSubscribe = List.copyOf(events);
        return this;
    }

    /** The next call received, waiting up to 10 s. */
    public Call nextCall() throws InterruptedException {
        Call c = calls.poll(10, TimeUnit.SECONDS);
        if (c == null) {
            throw new AssertionError("the fake agent received no call within 10 s");
        }
        return c;
    }

    /** The next call received, which must be of the given type. */
    public <C extends Call> C expectCall(Class<C> type) throws InterruptedException {
        Call c = nextCall();
        if (!type.isInstance(c)) {
            throw new AssertionError("expected " + type.getSimpleName() + " but the agent received " + c);
        }
        return type.cast(c);
    }

    /** Pushes a message to every connected client. */
    public void push(Message message) {
        for (Session s : sessions) {
            s.send(message);
        }
    }

    /** Closes every client connection, as a crashing agent would. */
    public void dropConnections() {
        for (Session s : sessions) {
            s.close();
        }
    }

    /** Waits until at least one client is connected. */
    public void awaitSession(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (sessions.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no client connected");
            }
            Thread.sleep(5);
        }
    }

    public static Reading reading(String sensor, long seq) {
        return Reading.ok(sensor, TIMESTAMP_MICROS + seq, seq, new Value.Num(42.5));
    }

    @Override
    public void sessionOpened(Session session) {
        sessions.add(session);
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        sessions.remove(session);
        joined.remove(session);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        if (message instanceof Hello hello) {
            lastHello = hello;
            if (silentOnHello) {
                return;
            }
            if (refusal != null) {
                session.send(HelloReply.refuse("fake", refusal));
                session.close();
            } else {
                session.send(HelloReply.accept("fake"));
            }
            return;
        }
        Request request = (Request) message;
        Call call = request.call();
        calls.add(call);
        if (silent.contains(call.getClass())) {
            return;
        }
        if (call instanceof Call.StartStream start) {
            long first = sharedStreams.containsValue(start.streamId()) ? sharedSequence : 0;
            for (int i = 0; i < framesOnStart; i++) {
                session.send(new StreamData(start.streamId(), reading("DUMMY_0", first + i).withUnit(unit)));
            }
        }
        if (call instanceof Call.StopStream stop) {
            joined.computeIfPresent(session, (k, ids) -> {
                ids.remove(stop.streamId());
                return ids;
            });
        }
        Function<Call, Result> custom = answers.get(call.getClass());
        Result result = custom != null ? custom.apply(call)
                : call instanceof Call.SetupStream s && s.shared() ? joinShared(session, s) : canned(call);
        session.send(new Response(request.id(), result));
        if (call instanceof Call.SubscribeEvents) {
            for (Event e : eventsOnSubscribe) {
                session.send(new EventNotice(e));
            }
        }
    }

    private static final List<SensorInfo> SENSORS = List.of(
            new SensorInfo("DUMMY_0", "dummy", SensorState.IDLE, "dummy sensor 0"),
            new SensorInfo("DUMMY_1", "dummy", SensorState.STREAMING, "dummy sensor 1"),
            new SensorInfo("freeMemory", "os", SensorState.IDLE, "free memory"));

    private static boolean known(String sensor) {
        return SENSORS.stream().anyMatch(s -> s.id().equals(sensor));
    }

    private static Result unknownSensor(String sensor) {
        return new Result.Failure(ErrorCode.UNKNOWN_SENSOR, "no sensor " + sensor);
    }

    private Result canned(Call call) {
        if (call instanceof Call.ListSensors l) {
            List<SensorInfo> list = new ArrayList<>(SENSORS);
            if (l.activeOnly()) {
                list.removeIf(s -> s.state() != SensorState.STREAMING);
            }
            return new Result.Sensors(list);
        } else if (call instanceof Call.DescribeSensor d) {
            return known(d.sensorId()) ? new Result.Document(SENSOR_ML) : unknownSensor(d.sensorId());
        } else if (call instanceof Call.ListCommands c) {
            return known(c.sensorId()) ? new Result.Document(CML) : unknownSensor(c.sensorId());
        } else if (call instanceof Call.Execute e) {
            if (!known(e.sensorId())) {
                return unknownSensor(e.sensorId());
            }
            if (e.commandId().equals("payload")) {
                int size = Integer.parseInt(e.arguments().getOrDefault("size", "64"));
                return new Result.ReadingResult(Reading.ok(e.sensorId(), TIMESTAMP_MICROS, 0, new Value.Bytes(new byte[size])));
            }
            if (e.commandId().equals("broken")) {
                return new Result.ReadingResult(Reading.error(e.sensorId(), TIMESTAMP_MICROS, 0, "device unplugged"));
            }
            if (e.commandId().equals("unplugged")) {
                return new Result.ReadingResult(Reading.disconnected(e.sensorId(), TIMESTAMP_MICROS, 0,
                        "device is disconnected: no route; next attempt in 2.0 s"));
            }
            if (!e.commandId().equals("read")) {
                return new Result.Failure(ErrorCode.UNKNOWN_COMMAND, "no command " + e.commandId());
            }
            return new Result.ReadingResult(reading(e.sensorId(), 0).withUnit(unit));
        } else if (call instanceof Call.SetupStream s) {
            return known(s.sensorId()) ? new Result.StreamHandle(nextStreamId.incrementAndGet()) : unknownSensor(s.sensorId());
        } else if (call instanceof Call.StartStream || call instanceof Call.StopStream
                || call instanceof Call.SubscribeEvents || call instanceof Call.UnsubscribeEvents) {
            return new Result.Ack();
        } else if (call instanceof Call.ListProtocols) {
            return new Result.Protocols(List.of(new ProtocolInfo("dummy", "dummy", "virtual", 2),
                    new ProtocolInfo("os", "os", "os", 1)));
        } else if (call instanceof Call.AddProtocol) {
            return new Result.Protocols(List.of(new ProtocolInfo("extra", "dummy", "virtual", 5)));
        } else if (call instanceof Call.RemoveProtocol r) {
            return r.name().equals("dummy") || r.name().equals("os") ? new Result.Ack()
                    : new Result.Failure(ErrorCode.UNKNOWN_PROTOCOL, "no protocol " + r.name());
        } else if (call instanceof Call.GetPlatformConfig) {
            return new Result.Document(PCML);
        } else if (call instanceof Call.AddSensor) {
            return new Result.Sensor(new SensorInfo("NEW_0", "dummy", SensorState.IDLE, "added"));
        } else if (call instanceof Call.RemoveSensor r) {
            return known(r.sensorId()) ? new Result.Ack() : unknownSensor(r.sensorId());
        }
        return new Result.Failure(ErrorCode.UNSUPPORTED, "the fake agent does not do " + call);
    }

    private Result joinShared(Session session, Call.SetupStream s) {
        if (!known(s.sensorId())) {
            return unknownSensor(s.sensorId());
        }
        if (s.intervalMs() == 0) {
            return new Result.Failure(ErrorCode.INVALID_ARGUMENT, "a shared stream needs an interval above 0");
        }
        long id = sharedStreams.computeIfAbsent(List.of(s.sensorId(), s.commandId(), s.arguments(), s.intervalMs()),
                key -> nextStreamId.incrementAndGet());
        if (!joined.computeIfAbsent(session, k -> ConcurrentHashMap.newKeySet()).add(id)) {
            return new Result.Failure(ErrorCode.CONFLICT, "this connection takes shared stream " + id + " already");
        }
        return new Result.StreamHandle(id, s.policy() == null ? SlowConsumerPolicy.BLOCK : s.policy());
    }

    @Override
    public void close() {
        server.close();
    }
}
