package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.stream.SlowConsumerSettings;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.PendingStream;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Result;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.model.Value;

/**
 * The agent-level conformance suite: the real {@link Agent} and the real {@link SalClient} over the
 * transport under test, with the dummy plugin, on port 0. A transport's test extends this class
 * and implements {@link #provider()}. Tests that use the {@code faulty} plugin need it on the class
 * path (this module's tests register one).
 */
public abstract class AbstractAgentConformanceTest {

    /** Dummy sensors on every test agent. */
    protected static final int DUMMY_SENSORS = 20;
    /** The plugin type of the deliberately failing test plugin. */
    protected static final String FAULTY = "faulty";
    /** The payload of the large streaming readings of the bench: 80 KB. */
    protected static final int LARGE_PAYLOAD_BYTES = 81_920;
    /**
     * How much the heap may grow while a client blocks on an 80 KB stream and another streams 80 MB:
     * a bounded agent stays well under it, one that queues for the blocked client goes far past it.
     */
    protected static final long SLOW_CLIENT_HEAP_GROWTH_BOUND = 48L * 1024 * 1024;
    /** How many times a client starts and stops a stream while an event subscriber does not read. */
    protected static final int EVENT_TOGGLES = 10_000;
    /**
     * How much the heap may grow over those 20,000 events: the subscriber's outbound bound (1 MiB by
     * default) plus room for the measurement's noise; an agent that queued every event would keep
     * them all, and the agent under test must say that it did not (the missed count).
     */
    protected static final long EVENT_HEAP_GROWTH_BOUND = 16L * 1024 * 1024;
    /** How long a slow-consumer test keeps its client stalled: 2,000 ticks of a 1 ms stream. */
    protected static final long STALL_MILLIS = 2_000;

    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());
    private final List<Agent> agents = new ArrayList<>();
    private Agent agent;

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /**
     * Whether the suite runs over TLS: the agent presents a certificate of the {@link TestPki}'s CA
     * for 127.0.0.1, and clients trust that CA and check the host name.
     */
    protected boolean tls() {
        return false;
    }

    /** Applies the transport's own agent settings, if any; the default changes nothing. */
    protected AgentBuilder configure(AgentBuilder builder) {
        return builder;
    }

    /** Applies the transport's own client settings, if any; the default changes nothing. */
    protected SalClient.Builder configure(SalClient.Builder builder) {
        return builder;
    }

    @AfterEach
    void closeEverything() throws Exception {
        List<AutoCloseable> toClose = new ArrayList<>(resources);
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // a client that broke is reported by its test
            }
        }
        agents.forEach(Agent::close);
    }

    // ------------------------------------------------------------------ helpers

    /** The dummy protocol of every test agent. */
    protected static ProtocolConfig dummyProtocol() {
        return new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", Integer.toString(DUMMY_SENSORS)));
    }

    /** A faulty protocol whose sensors are {@code prefix0}, {@code prefix1}. */
    protected static ProtocolConfig faultyProtocol(String name, String prefix) {
        return new ProtocolConfig(name, FAULTY, "virtual", Map.of("prefix", prefix, "sensors", "2"));
    }

    /** Starts an agent on port 0 with the dummy protocol, changed by {@code tweak}. */
    protected Agent startAgent(Consumer<AgentBuilder> tweak) throws IOException {
        AgentBuilder builder = Agent.builder().transport(provider()).host("127.0.0.1").port(0)
                .platform(new PlatformConfig(List.of(dummyProtocol()))).agentId("tck-agent")
                .tls(tls() ? TestPki.shared().serverTls() : null);
        configure(builder);
        tweak.accept(builder);
        Agent a = builder.start();
        agents.add(a);
        agent = a;
        return a;
    }

    protected Agent startAgent() throws IOException {
        return startAgent(b -> { });
    }

    protected Agent agent() {
        return agent;
    }

    /** A client connected to the current agent. */
    protected SalClient client(String name) throws IOException {
        return client(name, agent.port());
    }

    protected SalClient client(String name, int port) throws IOException {
        return connect(name, port, "");
    }

    /** A client connected to {@code port}, presenting {@code token} (empty for none). */
    private SalClient connect(String name, int port, String token) throws IOException {
        SalClient.Builder builder = SalClient.builder().transport(provider()).host("127.0.0.1").port(port)
                .clientName(name).token(token).connectTimeout(Duration.ofSeconds(5))
                .requestTimeout(Duration.ofSeconds(20))
                .tls(tls() ? TestPki.shared().clientTls() : null);
        configure(builder);
        SalClient c = builder.connect();
        resources.add(c);
        return c;
    }

    /** Starts a stream and registers it to be stopped after the test. */
    protected SensorStream stream(SalClient client, String sensor, String command, Map<String, String> args,
                                  long intervalMs, RecordingStreamListener listener) {
        SensorStream s = Await.result("stream of " + sensor + "/" + command,
                client.stream(sensor, command, args, intervalMs, listener));
        resources.add(() -> s.stop());
        return s;
    }

    /** Asserts that {@code future} fails with a {@link SalException} of {@code code} with a message. */
    protected static SalException assertFails(ErrorCode code, String what, CompletableFuture<?> future) {
        Throwable failure = Await.failure(what, Await.DEFAULT, future);
        while (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        SalException e = assertInstanceOf(SalException.class, failure, what + " should fail with a SalException");
        assertEquals(code, e.code(), what + ": " + e.getMessage());
        assertFalse(e.getMessage() == null || e.getMessage().isBlank(), what + " failed without saying why");
        return e;
    }

    /** Asserts the client still gets answers. */
    protected static void assertServes(SalClient client) {
        assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
    }

    private static Set<String> ids(List<SensorInfo> sensors) {
        return sensors.stream().map(SensorInfo::id).collect(Collectors.toSet());
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    // ------------------------------------------------------------------ the SAL API

    @Test
    @Timeout(30)
    void listsTheDummySensors() throws Exception {
        startAgent();
        SalClient client = client("lister");
        List<SensorInfo> sensors = Await.result("list sensors", client.listSensors());
        assertTrue(sensors.size() >= DUMMY_SENSORS, "expected at least " + DUMMY_SENSORS + ", got " + sensors);
        for (int i = 0; i < DUMMY_SENSORS; i++) {
            String id = "DUMMY_" + i;
            SensorInfo info = sensors.stream().filter(s -> s.id().equals(id)).findFirst()
                    .orElseThrow(() -> new AssertionError(id + " missing from " + ids(sensors)));
            assertEquals("dummy", info.protocol());
        }
        assertEquals(sensors.size(), ids(sensors).size(), "sensor ids repeat: " + sensors);
        assertTrue(Await.result("list active sensors", client.listActiveSensors()).isEmpty(),
                "no sensor streams yet, so none is active");
    }

    @Test
    @Timeout(30)
    void describesASensorInValidSensorMl() throws Exception {
        startAgent();
        SalClient client = client("describer");
        String xml = Await.result("describe DUMMY_3", client.describeSensorXml("DUMMY_3"));
        SensorMl.validate(xml);
        SensorDescription parsed = SensorMl.read(xml);
        assertEquals("DUMMY_3", parsed.id());
        assertEquals("dummy", parsed.protocol());
        assertFalse(parsed.outputs().isEmpty(), "a dummy sensor has outputs");
        assertEquals(parsed, Await.result("describe DUMMY_3 parsed", client.describeSensor("DUMMY_3")));
    }

    @Test
    @Timeout(30)
    void listsTheDummyCommandsInCml() throws Exception {
        startAgent();
        SalClient client = client("commands");
        List<CommandDescription> commands = Await.result("list commands", client.listCommands("DUMMY_0"));
        Map<String, CommandDescription> byId = commands.stream()
                .collect(Collectors.toMap(CommandDescription::id, c -> c));
        assertTrue(byId.keySet().containsAll(Set.of("read", "payload")), "commands: " + byId.keySet());
        assertTrue(byId.get("read").streamable() && byId.get("payload").streamable());
        assertTrue(byId.get("payload").arguments().stream().anyMatch(a -> a.name().equals("size")),
                "payload takes a size");
        String cml = Await.result("list commands xml", client.listCommandsXml("DUMMY_0"));
        assertEquals(commands, Cml.read(cml));
    }

    @Test
    @Timeout(30)
    void executesReadAndPayload() throws Exception {
        startAgent();
        SalClient client = client("executor");
        Reading read = Await.result("execute read", client.execute("DUMMY_1", "read", Map.of()));
        assertEquals(Reading.Status.OK, read.status(), read.error());
        assertEquals("DUMMY_1", read.sensorId());
        assertInstanceOf(Value.Num.class, read.value());
        String declared = Cml.read(Await.result("the commands", client.listCommandsXml("DUMMY_1"))).stream()
                .filter(c -> c.id().equals("read")).findFirst().orElseThrow().responseUnit();
        assertFalse(declared.isEmpty(), "the dummy's read declares a unit");
        assertEquals(declared, read.unit(), "a reading carries the unit its command declares");
        Reading payload = Await.result("execute payload",
                client.execute("DUMMY_1", "payload", Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES))));
        assertEquals(Reading.Status.OK, payload.status(), payload.error());
        assertEquals(LARGE_PAYLOAD_BYTES, ((Value.Bytes) payload.value()).value().length);
        Reading empty = Await.result("execute payload 0", client.execute("DUMMY_1", "payload", Map.of("size", "0")));
        assertEquals(0, ((Value.Bytes) empty.value()).value().length);
    }

    /**
     * The echo probes are the transport suite's, answered by its server with no agent behind it: the
     * agent refuses them with a reason that says what to call instead, and goes on serving.
     */
    @Test
    @Timeout(30)
    void refusesTheEchoProbesAsUnsupportedAndGoesOnServing() throws Exception {
        startAgent();
        ClientOptions options = ClientOptions.builder().host("127.0.0.1").port(agent.port())
                .tls(tls() ? TestPki.shared().clientTls() : null).build();
        try (TckClient probe = new TckClient("probe", provider().createClient(options), options.codec().name(),
                false).connect()) {
            for (Call echo : List.of(new Call.Echo(Value.of("ping")),
                    new Call.EchoReading(TckMessages.everyReading().get(0)))) {
                Result.Failure refused = assertInstanceOf(Result.Failure.class,
                        Await.result(echo.getClass().getSimpleName(), probe.request(echo)));
                assertEquals(ErrorCode.UNSUPPORTED, refused.code(), refused.message());
                assertTrue(refused.message().contains("transport-level probe")
                        && refused.message().contains("list its sensors"), refused.message());
            }
            Result sensors = Await.result("list sensors after the probes", probe.request(new Call.ListSensors(false)));
            assertFalse(assertInstanceOf(Result.Sensors.class, sensors).sensors().isEmpty(), "the agent lists no sensor");
        }
    }

    @Test
    @Timeout(30)
    void unknownSensorGetsClearErrorAndAgentKeepsServing() throws Exception {
        startAgent();
        SalClient client = client("confused");
        assertFails(ErrorCode.UNKNOWN_SENSOR, "describe NOPE", client.describeSensorXml("NOPE"));
        assertFails(ErrorCode.UNKNOWN_SENSOR, "commands of NOPE", client.listCommandsXml("NOPE"));
        assertFails(ErrorCode.UNKNOWN_SENSOR, "execute on NOPE", client.execute("NOPE", "read", Map.of()));
        assertFails(ErrorCode.UNKNOWN_SENSOR, "stream NOPE",
                client.stream("NOPE", "read", Map.of(), 10, RecordingStreamListener.fast("nope")));
        assertFails(ErrorCode.UNKNOWN_SENSOR, "remove NOPE", client.removeSensor("NOPE"));
        assertServes(client);
        assertServes(client("other"));
    }

    @Test
    @Timeout(30)
    void unknownCommandGetsClearErrorAndAgentKeepsServing() throws Exception {
        startAgent();
        SalClient client = client("confused");
        assertFails(ErrorCode.UNKNOWN_COMMAND, "execute fly", client.execute("DUMMY_0", "fly", Map.of()));
        assertFails(ErrorCode.UNKNOWN_COMMAND, "stream fly",
                client.stream("DUMMY_0", "fly", Map.of(), 10, RecordingStreamListener.fast("fly")));
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void argumentsOutOfBoundsAreInvalid() throws Exception {
        startAgent();
        SalClient client = client("unbounded");
        assertFails(ErrorCode.INVALID_ARGUMENT, "payload size above 16 MiB",
                client.execute("DUMMY_0", "payload", Map.of("size", "16777217")));
        assertFails(ErrorCode.INVALID_ARGUMENT, "negative payload size",
                client.execute("DUMMY_0", "payload", Map.of("size", "-1")));
        assertFails(ErrorCode.INVALID_ARGUMENT, "payload size not a number",
                client.execute("DUMMY_0", "payload", Map.of("size", "lots")));
        assertFails(ErrorCode.INVALID_ARGUMENT, "stream with a size above 16 MiB",
                client.stream("DUMMY_0", "payload", Map.of("size", "16777217"), 10,
                        RecordingStreamListener.fast("big")));
        assertFails(ErrorCode.INVALID_ARGUMENT, "negative interval",
                client.stream("DUMMY_0", "read", Map.of(), -1, RecordingStreamListener.fast("negative")));
        assertFails(ErrorCode.INVALID_ARGUMENT, "interval above a day",
                client.stream("DUMMY_0", "read", Map.of(), 86_400_001L, RecordingStreamListener.fast("long")));
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void intervalBelowTheSensorsMinimumIsInvalid() throws Exception {
        startAgent(b -> b.platform(new PlatformConfig(List.of(dummyProtocol(), faultyProtocol("faulty", "FAULTY_")))));
        SalClient client = client("hasty");
        assertFails(ErrorCode.INVALID_ARGUMENT, "interval 10 ms on a 100 ms minimum",
                client.stream("FAULTY_0", "slow", Map.of(), 10, RecordingStreamListener.fast("hasty")));
        RecordingStreamListener fine = RecordingStreamListener.fast("patient");
        SensorStream s = stream(client, "FAULTY_0", "slow", Map.of(), 100, fine);
        Await.until("a reading of the slow command", () -> fine.received() >= 1);
        Await.result("stop", s.stop());
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void addsAndRemovesASensor() throws Exception {
        startAgent();
        SalClient client = client("curator");
        SensorDescription template = Await.result("describe DUMMY_0", client.describeSensor("DUMMY_0"));
        SensorDescription extra = new SensorDescription("DUMMY_EXTRA", "added by the tck", template.protocol(),
                "", template.outputs(), template.sampling());
        SensorInfo added = Await.result("add sensor", client.addSensor(SensorMl.write(extra)));
        assertEquals("DUMMY_EXTRA", added.id());
        assertTrue(ids(Await.result("list", client.listSensors())).contains("DUMMY_EXTRA"));
        assertEquals(Reading.Status.OK, Await.result("read the new sensor",
                client.execute("DUMMY_EXTRA", "read", Map.of())).status());
        assertFails(ErrorCode.CONFLICT, "adding it twice", client.addSensor(SensorMl.write(extra)));

        RecordingStreamListener listener = RecordingStreamListener.fast("extra");
        stream(client, "DUMMY_EXTRA", "read", Map.of(), 5, listener);
        Await.until("readings of the new sensor", () -> listener.received() >= 2);
        Await.result("remove sensor", client.removeSensor("DUMMY_EXTRA"));
        Await.result("the stream of a removed sensor to end", listener.ended());
        assertFalse(ids(Await.result("list", client.listSensors())).contains("DUMMY_EXTRA"));
        assertFails(ErrorCode.UNKNOWN_SENSOR, "read a removed sensor", client.execute("DUMMY_EXTRA", "read", Map.of()));
        assertFails(ErrorCode.INVALID_DOCUMENT, "adding garbage", client.addSensor("<not-sensorml/>"));
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void listsAddsAndRemovesProtocols() throws Exception {
        startAgent();
        SalClient client = client("admin");
        List<ProtocolInfo> before = Await.result("list protocols", client.listProtocols());
        ProtocolInfo dummy = before.stream().filter(p -> p.name().equals("dummy")).findFirst()
                .orElseThrow(() -> new AssertionError("no dummy protocol in " + before));
        assertEquals("dummy", dummy.type());
        assertEquals(DUMMY_SENSORS, dummy.sensorCount());

        String pcml = Pcml.write(new PlatformConfig(List.of(faultyProtocol("extra", "EXTRA_"))));
        List<ProtocolInfo> added = Await.result("add protocol", client.addProtocol(pcml));
        assertEquals(List.of("extra"), added.stream().map(ProtocolInfo::name).toList());
        assertTrue(ids(Await.result("list", client.listSensors())).containsAll(Set.of("EXTRA_0", "EXTRA_1")));
        assertFails(ErrorCode.CONFLICT, "adding it twice", client.addProtocol(pcml));

        Await.result("remove protocol", client.removeProtocol("extra"));
        assertFalse(ids(Await.result("list", client.listSensors())).contains("EXTRA_0"));
        assertFalse(Await.result("list protocols", client.listProtocols()).stream()
                .anyMatch(p -> p.name().equals("extra")));
        assertFails(ErrorCode.UNKNOWN_PROTOCOL, "remove it again", client.removeProtocol("extra"));
        assertFails(ErrorCode.INVALID_DOCUMENT, "add garbage", client.addProtocol("<garbage"));
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void givesThePlatformConfigurationInPcml() throws Exception {
        startAgent();
        SalClient client = client("inspector");
        PlatformConfig config = Pcml.read(Await.result("platform config", client.platformConfigXml()));
        ProtocolConfig dummy = config.protocols().stream().filter(p -> p.name().equals("dummy")).findFirst()
                .orElseThrow(() -> new AssertionError("no dummy protocol in " + config));
        assertEquals("dummy", dummy.type());
    }

    @Test
    @Timeout(30)
    void subscribersGetSensorAndProtocolEvents() throws Exception {
        startAgent();
        SalClient watcher = client("watcher");
        SalClient admin = client("admin");
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        AutoCloseable subscription = Await.result("subscribe", watcher.subscribeEvents(events::add));

        String pcml = Pcml.write(new PlatformConfig(List.of(faultyProtocol("evented", "EV_"))));
        Await.result("add protocol", admin.addProtocol(pcml));
        awaitEvent(events, Event.Type.PROTOCOL_ADDED, "evented");
        Await.result("remove sensor", admin.removeSensor("DUMMY_7"));
        awaitEvent(events, Event.Type.SENSOR_REMOVED, "DUMMY_7");
        Await.result("remove protocol", admin.removeProtocol("evented"));
        awaitEvent(events, Event.Type.PROTOCOL_REMOVED, "evented");
        subscription.close();
        assertServes(watcher);
    }

    private static Event awaitEvent(BlockingQueue<Event> events, Event.Type type, String subject)
            throws InterruptedException {
        long end = System.nanoTime() + Await.DEFAULT.toNanos();
        List<Event> seen = new ArrayList<>();
        while (System.nanoTime() < end) {
            Event e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e == null) {
                continue;
            }
            seen.add(e);
            if (e.type() == type && e.subject().equals(subject)) {
                return e;
            }
        }
        return fail("no " + type + " event for " + subject + "; saw " + seen);
    }

    // ------------------------------------------------------------------ streams

    /** The readings a subscriber of a shared stream got, in order, and the sequences that followed a gap. */
    private static final class SharedSubscriber implements StreamListener {
        final List<Reading> readings = new CopyOnWriteArrayList<>();
        final List<Long> afterGaps = new CopyOnWriteArrayList<>();

        @Override
        public void onReading(Reading reading) {
            readings.add(reading);
        }

        @Override
        public void onGap(long missed, long nextSequence) {
            afterGaps.add(nextSequence);
        }
    }

    @Test
    @Timeout(60)
    void clientsOfASharedStreamGetOneIdAndTheSameReadingsEncodedOnceForAll() throws Exception {
        startAgent();
        List<SharedSubscriber> subscribers = new ArrayList<>();
        List<SensorStream> streams = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SharedSubscriber subscriber = new SharedSubscriber();
            streams.add(Await.result("subscriber " + i + " joining the shared stream",
                    client("shared-" + i).stream("DUMMY_0", "read", null, 20, null, true, subscriber)));
            subscribers.add(subscriber);
            Await.until("5 readings at subscriber " + i, () -> subscriber.readings.size() >= 5);
        }
        for (SensorStream s : streams) {
            assertEquals(streams.get(0).id(), s.id(), "one stream id for every subscriber");
            assertTrue(s.shared());
        }
        long joinedAt = subscribers.get(2).readings.get(0).sequence();
        assertTrue(joinedAt >= 10, "the last subscriber joined after 10 readings, yet its first was #" + joinedAt);
        assertFalse(subscribers.get(2).afterGaps.contains(joinedAt), "the readings before it joined are no gap");
        for (SensorStream s : streams) {
            Await.result("stopping a subscriber", s.stop());
        }
        Map<Long, Reading> first = new HashMap<>();
        long delivered = 0;
        for (SharedSubscriber subscriber : subscribers) {
            List<Reading> got = subscriber.readings;
            delivered += got.size();
            for (int i = 0; i < got.size(); i++) {
                assertEquals(got.get(0).sequence() + i, got.get(i).sequence(), "in order, without gaps");
                Reading earlier = first.putIfAbsent(got.get(i).sequence(), got.get(i));
                if (earlier != null) {
                    assertEquals(earlier, got.get(i), "one reading per tick for every subscriber");
                }
            }
        }
        assertEquals(first.size(), agent().streamFramesEncoded(), "one frame encoded per reading, for "
                + delivered + " readings delivered to three subscribers");
    }

    @Test
    @Timeout(60)
    void manyClientsStreamManySensorsInOrder() throws Exception {
        int clients = 6;
        int sensorsEach = 4;
        int readings = 200;
        startAgent();
        List<RecordingStreamListener> listeners = new ArrayList<>();
        List<SensorStream> streams = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            SalClient client = client("streamer-" + c);
            for (int s = 0; s < sensorsEach; s++) {
                String sensor = "DUMMY_" + ((c * sensorsEach + s) % DUMMY_SENSORS);
                RecordingStreamListener l = RecordingStreamListener.fast(client + "/" + sensor);
                listeners.add(l);
                streams.add(stream(client, sensor, s % 2 == 0 ? "read" : "payload", Map.of(), 1, l));
            }
        }
        for (RecordingStreamListener l : listeners) {
            Await.until(() -> "at least " + readings + " readings: " + l, Await.DEFAULT, () -> l.received() >= readings);
        }
        for (SensorStream s : streams) {
            Await.result("stop", s.stop());
        }
        for (RecordingStreamListener l : listeners) {
            assertNull(l.violation(), l.toString());
            assertEquals(0, l.errors(), l.toString());
        }
    }

    @Test
    @Timeout(30)
    void aStreamSetUpIsStartedLaterOrCancelled() throws Exception {
        startAgent();
        SalClient client = client("planner");
        PendingStream later = Await.result("set up a stream", client.setupStream("DUMMY_6", "read", Map.of(), 1));
        PendingStream dropped = Await.result("set up another", client.setupStream("DUMMY_7", "read", Map.of(), 1));
        assertNotEquals(later.id(), dropped.id(), "each stream has its own id");
        assertTrue(Await.result("active sensors", client.listActiveSensors()).stream()
                .noneMatch(i -> i.id().equals("DUMMY_6") || i.id().equals("DUMMY_7")), "a set-up stream is not running");

        Await.result("cancel", dropped.cancel());
        assertInstanceOf(IllegalStateException.class, Await.failure("a start after the cancel", Await.DEFAULT,
                dropped.start(RecordingStreamListener.fast("too late"))));

        RecordingStreamListener listener = RecordingStreamListener.fast("later");
        SensorStream started = Await.result("start the set-up stream", later.start(listener));
        assertEquals(later.id(), started.id());
        Await.until("readings of the started stream", () -> listener.received() >= 20);
        assertInstanceOf(IllegalStateException.class, Await.failure("a second start", Await.DEFAULT,
                later.start(RecordingStreamListener.fast("again"))));
        Await.result("stop", started.stop());
        assertNull(listener.violation(), listener.toString());

        assertFails(ErrorCode.INVALID_ARGUMENT, "arguments out of bounds are refused at set-up",
                client.setupStream("DUMMY_0", "payload", Map.of("size", "16777217"), 10));
        assertServes(client);
    }

    @Test
    @Timeout(30)
    void nothingArrivesAfterStopCompletes() throws Exception {
        startAgent();
        SalClient client = client("stopper");
        RecordingStreamListener stopped = RecordingStreamListener.fast("stopped");
        SensorStream s = stream(client, "DUMMY_0", "read", Map.of(), 0, stopped);
        Await.until("readings", () -> stopped.received() >= 50);
        Await.result("stop", s.stop());
        long atStop = stopped.received();
        assertTrue(Await.result("active sensors", client.listActiveSensors()).stream()
                .noneMatch(i -> i.id().equals("DUMMY_0")), "DUMMY_0 is still active after its stream stopped");
        // Let another stream on the same connection carry 200 readings: anything of the stopped one
        // still in flight would have arrived by then.
        RecordingStreamListener marker = RecordingStreamListener.fast("marker");
        SensorStream m = stream(client, "DUMMY_1", "read", Map.of(), 0, marker);
        Await.until("marker readings", () -> marker.received() >= 200);
        Await.result("stop marker", m.stop());
        assertEquals(atStop, stopped.received(), "readings arrived after the stop completed");
        assertNull(stopped.violation(), stopped.toString());
        assertTrue(stopped.endedCalls() <= 1, "onEnded ran more than once");
        assertEquals(0, stopped.readingsAfterEnd());
    }

    @Test
    @Timeout(30)
    void aClientLeavingMidStreamDoesNotDisturbAnother() throws Exception {
        startAgent();
        SalClient leaving = client("leaving");
        SalClient staying = client("staying");
        RecordingStreamListener leaver = RecordingStreamListener.fast("leaver");
        RecordingStreamListener stayer = RecordingStreamListener.fast("stayer");
        stream(leaving, "DUMMY_2", "payload", Map.of("size", "1000"), 0, leaver);
        stream(staying, "DUMMY_2", "read", Map.of(), 1, stayer);
        Await.until("both streaming", () -> leaver.received() >= 20 && stayer.received() >= 5);
        leaving.close();
        Await.until("the leaving client to close", () -> !leaving.isOpen());
        long seen = stayer.received();
        Await.until("the staying stream to go on", () -> stayer.received() >= seen + 50);
        assertNull(stayer.violation(), stayer.toString());
        assertServes(staying);
        assertServes(client("newcomer"));
    }

    @Test
    @Timeout(90) // as the other slow-consumer tests: a caller may deliver the first held reading (docs/performance.md)
    void slowStreamListenerDoesNotGrowAgentMemoryWhileOthersStream() throws Exception {
        startAgent();
        SalClient slowClient = client("slow");
        SalClient fastClient = client("fast");
        Map<String, String> large = Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES));
        long heapBefore = usedHeap();

        RecordingStreamListener slow = RecordingStreamListener.holding("slow");
        stream(slowClient, "DUMMY_4", "payload", large, 0, slow);
        Await.until("the slow listener to block", slow::isBlocked);

        RecordingStreamListener fast = RecordingStreamListener.fast("fast");
        SensorStream fastStream = stream(fastClient, "DUMMY_5", "payload", large, 0, fast);
        int fastReadings = 1_000; // 80 MB: an agent queueing for the blocked client would queue as much
        Await.until(() -> "the fast client to stream " + fastReadings + " readings: " + fast,
                Duration.ofSeconds(40), () -> fast.received() >= fastReadings);
        Await.result("stop the fast stream", fastStream.stop());
        long growth = usedHeap() - heapBefore;
        assertTrue(slow.isBlocked(), "the slow listener should still be held");
        assertTrue(growth < SLOW_CLIENT_HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024
                + " MiB while one client was blocked; the agent buffers without bound for a slow client");
        assertNull(fast.violation(), fast.toString());

        slow.release();
        long resumedFrom = slow.received();
        Await.until(() -> "the slow client to get readings again: " + slow, Await.DEFAULT,
                () -> slow.received() >= resumedFrom + 50);
        assertNull(slow.violation(), "sequence broke after the slow client resumed: " + slow);
        assertServes(slowClient);
    }

    // ------------------------------------------------------------------ slow consumers

    /**
     * A subscriber whose client stops reading (its stream listener holds the client's only delivering
     * thread, behind an 80 KB stream that fills its buffers) while another client starts and stops a
     * stream {@value #EVENT_TOGGLES} times: the agent counts the events it cannot deliver instead of
     * queueing them, and the subscriber sees the count when it reads again.
     */
    @Test
    @Timeout(240)
    void eventSubscriberThatStopsReadingLosesEventsCountedAndTheAgentHeapStaysBounded() throws Exception {
        startAgent();
        SalClient subscriber = client("stalled-subscriber");
        SalClient toggler = client("toggler");
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        Await.result("subscribe", subscriber.subscribeEvents(events::add));
        RecordingStreamListener stall = RecordingStreamListener.holding("stall");
        SensorStream stalled = stream(subscriber, "DUMMY_4", "payload",
                Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES)), 0, stall);
        Await.until("the subscriber's reader to stall", stall::isBlocked);
        long heapBefore = usedHeap();

        for (int i = 0; i < EVENT_TOGGLES; i++) {
            SensorStream s = Await.result("stream " + i, toggler.stream("DUMMY_7", "read", Map.of(), 60_000,
                    RecordingStreamListener.fast("toggled")));
            Await.result("stop " + i, s.stop());
        }
        long growth = usedHeap() - heapBefore;
        assertTrue(growth < EVENT_HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 + " KiB while "
                + 2 * EVENT_TOGGLES + " events were published to a subscriber that does not read");
        assertTrue(stall.isBlocked(), "the subscriber should still be stalled");

        stall.release();
        Await.result("stop the stalled stream", stalled.stop());
        Await.until(() -> "the subscriber to account for every state event of DUMMY_7: " + subscriber.missedEvents()
                        + " missed, " + events.size() + " received",
                Duration.ofSeconds(60), () -> stateEvents(events, "DUMMY_7") + subscriber.missedEvents()
                        >= 2L * EVENT_TOGGLES);
        assertTrue(subscriber.missedEvents() > 0, "the agent delivered every event to a subscriber that did not read");
        assertTrue(events.stream().anyMatch(e -> e.type() == Event.Type.EVENTS_MISSED),
                "the subscriber was not told that it missed events");
        assertServes(subscriber);
        assertServes(toggler);
    }

    private static long stateEvents(BlockingQueue<Event> events, String sensor) {
        return events.stream().filter(e -> e.type() == Event.Type.SENSOR_STATE && e.subject().equals(sensor)).count();
    }

    @Test
    @Timeout(90)
    void blockPolicySkipsAndCountsReadingsOfAStalledClientAndTheHeapStaysBounded() throws Exception {
        startAgent();
        SalClient stalledClient = client("stalled");
        RecordingStreamListener stalled = RecordingStreamListener.holding("block");
        SensorStream stream = stallWithinBoundedHeap(stalledClient, SlowConsumerPolicy.BLOCK, stalled);
        stalled.release();
        Await.until(() -> "readings again: " + stalled, Await.DEFAULT, () -> stalled.received() > 10);
        Await.result("stop", stream.stop());
        StreamCounts counts = Await.result("counts", stream.counts());
        assertTrue(counts.skipped() > 0, "no reading was skipped for a stalled client: " + counts);
        assertEquals(0, counts.dropped(), counts.toString());
        assertEquals(stalled.received(), counts.delivered(), "every delivered reading arrived: " + counts);
        assertNull(stalled.violation(), "block never leaves gaps: " + stalled);
        assertServes(stalledClient);
    }

    @Test
    @Timeout(90)
    void dropOldestPolicyDeliversTheNewestReadingsAndCountsEveryLoss() throws Exception {
        int ring = 16;
        startAgent(b -> b.slowConsumers(new SlowConsumerSettings(SlowConsumerPolicy.BLOCK, ring,
                SlowConsumerSettings.DEFAULT_DISCONNECT_AFTER)));
        SalClient stalledClient = client("stalled");
        RecordingStreamListener stalled = RecordingStreamListener.holding("drop-oldest");
        SensorStream stream = stallWithinBoundedHeap(stalledClient, SlowConsumerPolicy.DROP_OLDEST, stalled);
        stalled.release();
        Await.until(() -> "the client to catch up past a gap: " + stalled, Await.DEFAULT,
                () -> stalled.gaps() > 0 && stalled.received() > 2L * ring);
        Await.result("stop", stream.stop());
        StreamCounts counts = Await.result("counts", stream.counts());
        assertNull(stalled.violation(), "sequence numbers must only jump where the library reported a gap: " + stalled);
        assertEquals(stalled.received(), counts.delivered(), counts.toString());
        assertTrue(stalled.gapped() > 0, "no reading was dropped for a stalled client: " + counts);
        // Every reading the client saw missing is a counted drop; the other drops came after its last
        // reading (the ring overflowing until the stop, and what it held then), where no jump shows them.
        assertTrue(counts.dropped() >= stalled.gapped(),
                "dropped " + counts.dropped() + " but the client saw " + stalled.gapped() + " missing");
        assertEquals(0, counts.skipped(), counts.toString());
        assertServes(stalledClient);
    }

    @Test
    @Timeout(90)
    void disconnectPolicyClosesOnlyTheStalledSessionWithTheReason() throws Exception {
        Agent a = startAgent(b -> b.slowConsumers(new SlowConsumerSettings(SlowConsumerPolicy.BLOCK,
                SlowConsumerSettings.DEFAULT_RING_READINGS, Duration.ofMillis(500))));
        SalClient other = client("other");
        RecordingStreamListener otherListener = RecordingStreamListener.fast("other");
        stream(other, "DUMMY_5", "read", Map.of(), 5, otherListener);
        SalClient stalledClient = client("stalled");
        RecordingStreamListener stalled = RecordingStreamListener.holding("disconnect");
        SensorStream stream = Await.result("stream", stalledClient.stream("DUMMY_4", "payload", largePayload(), 1,
                SlowConsumerPolicy.DISCONNECT, stalled));
        assertEquals(SlowConsumerPolicy.DISCONNECT, stream.policy());
        Await.until("the client to stall", stalled::isBlocked);

        Await.until(() -> "the agent to close the stalled session: " + a.sessionCount() + " open",
                Duration.ofSeconds(30), () -> a.sessionCount() == 1);
        stalled.release();
        Await.result("the stalled client's connection to close", Duration.ofSeconds(30), stalledClient.closeFuture());
        assertFalse(stalledClient.isOpen());
        String reason = Await.result("the stalled stream's end", stalled.ended());
        assertFalse(reason.isBlank(), "the stream ended without a reason");

        long before = otherListener.received();
        Await.until(() -> "the other client to keep streaming: " + otherListener, Await.DEFAULT,
                () -> otherListener.received() > before + 10);
        assertNull(otherListener.violation(), otherListener.toString());
        assertServes(other);
    }

    /**
     * Starts a 1 ms stream of 80 KB readings with {@code policy} whose listener holds the client's
     * delivering thread, keeps it stalled for {@link #STALL_MILLIS} (about 2,000 readings fall due)
     * and checks that the agent's heap stayed bounded meanwhile.
     */
    private SensorStream stallWithinBoundedHeap(SalClient client, SlowConsumerPolicy policy,
                                                RecordingStreamListener stalled) throws InterruptedException {
        SensorStream stream = Await.result("stream", client.stream("DUMMY_4", "payload", largePayload(), 1,
                policy, stalled));
        assertEquals(policy, stream.policy());
        Await.until("the client to stall", stalled::isBlocked);
        long heapBefore = usedHeap();
        Thread.sleep(STALL_MILLIS);
        long growth = usedHeap() - heapBefore;
        assertTrue(growth < SLOW_CLIENT_HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024
                + " MiB while the client of a " + policy + " stream was stalled");
        assertTrue(stalled.isBlocked(), "the client should still be stalled");
        return stream;
    }

    private static Map<String, String> largePayload() {
        return Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES));
    }

    @Test
    @Timeout(30)
    void faultyPluginGivesErrorReadingsAndOthersKeepWorking() throws Exception {
        startAgent(b -> b.platform(new PlatformConfig(List.of(dummyProtocol(), faultyProtocol("faulty", "FAULTY_")))));
        SalClient client = client("brave");
        Reading failed = Await.result("execute a failing read", client.execute("FAULTY_0", "read", Map.of()));
        assertEquals(Reading.Status.ERROR, failed.status());
        assertFalse(failed.error().isBlank(), "an error reading says why");

        RecordingStreamListener failing = RecordingStreamListener.fast("failing");
        RecordingStreamListener flaky = RecordingStreamListener.fast("flaky");
        RecordingStreamListener healthy = RecordingStreamListener.fast("healthy");
        stream(client, "FAULTY_0", "read", Map.of(), 1, failing);
        stream(client, "FAULTY_1", "flaky", Map.of(), 1, flaky);
        stream(client, "DUMMY_0", "read", Map.of(), 1, healthy);
        Await.until(() -> "readings on all three streams: " + failing + "; " + flaky + "; " + healthy,
                Await.DEFAULT, () -> failing.received() >= 10 && flaky.received() >= 10 && healthy.received() >= 10);
        assertEquals(0, failing.notErrors(),
                "a sensor whose every read fails gave a reading that is not an error: " + failing);
        assertTrue(flaky.errors() > 0 && flaky.ok() > 0, "a flaky sensor gives both: " + flaky);
        assertEquals(0, healthy.errors(), healthy.toString());
        for (RecordingStreamListener l : List.of(failing, flaky, healthy)) {
            assertNull(l.violation(), l.toString());
            assertFalse(l.ended().isDone(), "a failing read must not end the stream: " + l);
        }
        assertEquals(Reading.Status.OK, Await.result("the faulty protocol's healthy command",
                client.execute("FAULTY_0", "ok", Map.of())).status());
        assertServes(client);
    }

    // ------------------------------------------------------------------ life cycle

    @Test
    @Timeout(30)
    void agentShutdownEndsStreamsAndClosesClients() throws Exception {
        Agent a = startAgent();
        List<SalClient> clients = new ArrayList<>();
        List<RecordingStreamListener> listeners = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SalClient c = client("c" + i);
            RecordingStreamListener l = RecordingStreamListener.fast("c" + i);
            Await.result("stream", c.stream("DUMMY_" + i, "read", Map.of(), 2, l));
            clients.add(c);
            listeners.add(l);
        }
        Await.until("every stream to deliver", () -> listeners.stream().allMatch(l -> l.received() > 2));
        a.close();
        for (int i = 0; i < clients.size(); i++) {
            SalClient c = clients.get(i);
            RecordingStreamListener l = listeners.get(i);
            Await.result("the stream of " + c + " to end", l.ended());
            Await.until(c + " to see the agent close", () -> !c.isOpen());
            assertEquals(1, l.endedCalls(), l.toString());
            assertNull(l.violation(), l.toString());
        }
        a.close(); // idempotent
    }

    @Test
    @Timeout(30)
    void clientReconnectsAfterAgentRestartOnTheSamePort() throws Exception {
        Agent first = startAgent();
        int port = first.port();
        SalClient before = client("before");
        assertServes(before);
        first.close();
        Await.until("the client to see the agent go", () -> !before.isOpen());
        Throwable failure = Await.failure("a request to a stopped agent", Await.DEFAULT, before.listSensors());
        assertNotNull(failure);

        Agent second = startAgent(b -> b.port(port));
        assertEquals(port, second.port());
        assertServes(client("after", port));
    }

    @Test
    @Timeout(30)
    void agentReportsItsTransportAndAddress() throws Exception {
        Agent a = startAgent();
        assertEquals(provider().name(), a.transportName());
        assertTrue(a.port() > 0);
        assertEquals(a.port(), a.address().getPort());
        int unused;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            unused = probe.getLocalPort();
        }
        try {
            client("nowhere", unused);
            fail("connecting where no agent listens should fail");
        } catch (IOException expected) {
            assertFalse(expected.getMessage() == null || expected.getMessage().isBlank());
        }
    }

    // ------------------------------------------------------------------ tokens and roles

    /** An agent that requires {@link TckTokens}: one admin and one reader token. */
    protected Agent startAgentWithTokens() throws IOException {
        return startAgent(b -> b.tokens(TckTokens.tokens()));
    }

    /** A client of the current agent presenting {@code token}. */
    protected SalClient client(String name, String token) throws IOException {
        return connect(name, agent.port(), token);
    }

    @Test
    @Timeout(30)
    void withTokensAClientWithoutOneIsRefusedUnauthenticatedAndOthersAreServed() throws Exception {
        startAgentWithTokens();
        HelloRefusedException e = TckTokens.refused(() -> client("anonymous", ""));
        assertEquals(ErrorCode.UNAUTHENTICATED, e.code(), e.getMessage());
        assertTrue(e.getMessage().endsWith("refused the connection (unauthenticated): this agent requires a token: "
                + "give one with --token or the SALGATE_TOKEN environment variable."), e.getMessage());
        assertServes(client("reader", TckTokens.READER));
    }

    @Test
    @Timeout(30)
    void withTokensAWrongTokenIsRefusedUnauthenticatedAndOthersAreServed() throws Exception {
        startAgentWithTokens();
        for (String wrong : List.of(TckTokens.ADMIN + "x", TckTokens.ADMIN.substring(1), "not-a-token-at-all-000")) {
            HelloRefusedException e = TckTokens.refused(() -> client("guesser", wrong));
            assertEquals(ErrorCode.UNAUTHENTICATED, e.code(), e.getMessage());
            assertTrue(e.getMessage().endsWith("refused the connection (unauthenticated): the token is not valid for "
                    + "this agent: check it against the agent's tokens file."), e.getMessage());
        }
        assertServes(client("admin", TckTokens.ADMIN));
    }

    @Test
    @Timeout(30)
    void aReaderReadsButEachAdminOperationIsPermissionDenied() throws Exception {
        startAgentWithTokens();
        SalClient reader = client("reader", TckTokens.READER);
        SalClient admin = client("admin", TckTokens.ADMIN);
        assertEquals(Reading.Status.OK, Await.result("read", reader.execute("DUMMY_0", "read", Map.of())).status());
        String sensorMl = Await.result("describe", reader.describeSensorXml("DUMMY_0"));
        String pcml = Pcml.write(new PlatformConfig(List.of(faultyProtocol("extra", "EXTRA_"))));
        Map<String, CompletableFuture<?>> denied = new java.util.LinkedHashMap<>();
        denied.put("add protocol", reader.addProtocol(pcml));
        denied.put("remove protocol", reader.removeProtocol("dummy"));
        denied.put("add sensor", reader.addSensor(sensorMl.replace("DUMMY_0", "DUMMY_NEW")));
        denied.put("remove sensor", reader.removeSensor("DUMMY_0"));
        denied.put("get platform config", reader.platformConfigXml());
        denied.forEach((operation, call) -> {
            SalException e = assertFails(ErrorCode.PERMISSION_DENIED, operation + " as a reader", call);
            assertTrue(e.getMessage().contains("'" + operation + "' needs the admin role, and this connection's "
                    + "token has the reader role"), e.getMessage());
        });
        assertEquals(DUMMY_SENSORS, Await.result("list", admin.listSensors()).size());
        assertEquals(List.of("dummy"), Await.result("protocols", admin.listProtocols()).stream()
                .map(ProtocolInfo::name).toList());
        Await.result("the admin's platform config", admin.platformConfigXml());
        Await.result("the admin adds a protocol", admin.addProtocol(pcml));
        Await.result("the admin removes it", admin.removeProtocol("extra"));
        assertServes(reader);
    }
}
