package org.salgate.plugin.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.Value;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

/**
 * The conformance suite every sensor plugin passes: the plugin driven through a real agent
 * ({@link KitAgent}), loaded from the test's class path by its type, next to a dummy protocol
 * (the neighbour, sensor {@value #NEIGHBOUR_SENSOR}) that must keep serving whatever the plugin
 * does. A plugin's test extends this class and gives the protocol to open ({@link #protocol()})
 * and the configurations the plugin must refuse ({@link #badConfigurations()}); the other methods
 * have defaults. A plugin whose protocols talk to devices extends
 * {@link AbstractDevicePluginConformanceTest} instead.
 */
@Timeout(120)
public abstract class AbstractPluginConformanceTest {

    /** The neighbour's one sensor. */
    protected static final String NEIGHBOUR_SENSOR = "NEIGHBOUR_0";
    /** Callers reading at once in the concurrency test. */
    protected static final int CALLERS = 8;
    /** Reads each of them makes. */
    protected static final int READS_PER_CALLER = 12;

    private final List<KitAgent> agents = new ArrayList<>();
    private ObservedPlugin.Observation observation;

    /**
     * A configuration the plugin must refuse when the protocol is added, with a message that names
     * what is wrong.
     *
     * @param config the protocol, under a name of its own
     * @param named what the refusal's message must contain, such as the parameter's name
     */
    public record BadConfiguration(ProtocolConfig config, String named) {
        public BadConfiguration {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(named, "named");
        }
    }

    // ---------------------------------------------------------------- what a plugin's test says

    /** The protocol under test, as its PCML entry gives it: the plugin's type, an endpoint, parameters, channels. */
    protected abstract ProtocolConfig protocol();

    /** Configurations the plugin must refuse at load; at least one. */
    protected abstract List<BadConfiguration> badConfigurations();

    /** Sensors the protocol must serve (it may serve more; it must serve one at least). */
    protected Set<String> requiredSensors() {
        return Set.of();
    }

    /** The command that reads a sensor once, without arguments. */
    protected String readCommand(String sensorId) {
        return "read";
    }

    /**
     * The value a read of the sensor gives, when the test knows it (a simulated device's, a
     * constant); null by default, for any value. Numbers match within 1e-9.
     */
    protected Value expectedValue(String sensorId) {
        return null;
    }

    /** Checks one reading of a sensor: OK, with a value, the {@link #expectedValue} when there is one. */
    protected void checkReading(String sensorId, Reading reading) {
        assertEquals(Reading.Status.OK, reading.status(), () -> sensorId + ": " + reading.error());
        assertFalse(reading.value() instanceof Value.Absent, () -> sensorId + " read OK without a value");
        Value expected = expectedValue(sensorId);
        if (expected instanceof Value.Num n && reading.value() instanceof Value.Num got) {
            assertEquals(n.value(), got.value(), 1e-9, sensorId);
        } else if (expected != null) {
            assertEquals(expected, reading.value(), sensorId);
        }
    }

    /** The plugin's own settings of every test agent, such as the devices or lower agents it may reach. */
    protected void configure(AgentBuilder builder) {
    }

    /**
     * Whether a thread belongs to the test's fixture rather than to the plugin (a simulated device,
     * a lower agent): such threads may start while the plugin runs and stay after it closed.
     */
    protected boolean fixtureThread(Thread thread) {
        return false;
    }

    // ---------------------------------------------------------------- helpers for the suites

    /** The neighbour protocol: one dummy sensor {@value #NEIGHBOUR_SENSOR}. */
    protected static ProtocolConfig neighbour() {
        return new ProtocolConfig("tck-neighbour", "dummy", "virtual", Map.of("sensors", "1", "prefix", "NEIGHBOUR"));
    }

    /** {@code config} with {@code parameters} added (they win over the config's own). */
    protected static ProtocolConfig withParameters(ProtocolConfig config, Map<String, String> parameters) {
        Map<String, String> all = new HashMap<>(config.parameters());
        all.putAll(parameters);
        return new ProtocolConfig(config.name(), config.type(), config.endpoint(), all, config.addedSensors(),
                config.removedSensors(), config.channels());
    }

    /** Starts an agent with these protocols, the plugin loaded from the class path as the agent would. */
    protected KitAgent start(ProtocolConfig... protocols) throws IOException {
        KitAgent a = KitAgent.start(new PlatformConfig(List.of(protocols)), getClass().getClassLoader(),
                this::configure);
        agents.add(a);
        return a;
    }

    /** Starts an agent with these protocols, every call to the plugin's protocols recorded ({@link #calls}). */
    protected KitAgent startObserved(ProtocolConfig... protocols) throws IOException {
        if (observation == null) {
            observation = ObservedPlugin.observe(getClass().getClassLoader(), protocol().type());
        }
        KitAgent a = observation.starting(loader -> KitAgent.start(new PlatformConfig(List.of(protocols)), loader,
                this::configure));
        agents.add(a);
        return a;
    }

    /** The calls an agent of {@link #startObserved} made to the protocol of this name. */
    protected ProtocolCalls calls(String protocolName) {
        return observation.calls(protocolName);
    }

    /** The ids of the sensors the agent serves for a protocol, sorted. */
    protected static List<String> sensorsOf(KitAgent agent, String protocolName) {
        return agent.agent().sensors().stream().filter(s -> s.protocol().equals(protocolName)).map(SensorInfo::id)
                .sorted().toList();
    }

    /** Reads every sensor of the protocol under test once and checks each reading. */
    protected void readsEverySensor(KitAgent agent, KitSession session) {
        List<String> sensors = sensorsOf(agent, protocol().name());
        assertFalse(sensors.isEmpty(), "protocol " + protocol().name() + " serves no sensor");
        for (String id : sensors) {
            checkReading(id, session.read(id, readCommand(id), Map.of()));
        }
    }

    /**
     * Starts a stream of a sensor's read command at {@code intervalMs}, or at the least interval
     * the command allows when that is longer.
     */
    protected long stream(KitSession session, String sensorId, long intervalMs) {
        String cml = session.ok(new Call.ListCommands(sensorId), Result.Document.class).xml();
        CommandDescription read = parse(() -> Cml.read(cml), sensorId + "'s command list", cml).stream()
                .filter(c -> c.id().equals(readCommand(sensorId))).findFirst()
                .orElseThrow(() -> new AssertionError(sensorId + " lists no command " + readCommand(sensorId)));
        assertTrue(read.streamable(), () -> sensorId + "'s read command cannot be streamed: " + cml);
        return session.stream(sensorId, read.id(), Math.max(intervalMs, read.streaming().minIntervalMs()));
    }

    /** Checks that the neighbour still serves. */
    protected static void neighbourServes(KitSession session) {
        Reading r = session.read(NEIGHBOUR_SENSOR, "read", Map.of());
        assertEquals(Reading.Status.OK, r.status(), () -> "the neighbour protocol stopped serving: " + r.error());
    }

    /** Waits for {@code condition}, failing after {@link KitSession#WAIT_MS}. */
    protected static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KitSession.WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + KitSession.WAIT_MS + " ms for " + what);
            }
            Thread.sleep(10);
        }
    }

    @AfterEach
    void closeAgents() {
        agents.forEach(KitAgent::close);
        agents.clear();
    }

    // ---------------------------------------------------------------- lifecycle

    @Test
    void thePluginLoadsByItsTypeAndServesEachSensorDescribedWithItsCommandsListed() throws Exception {
        KitAgent agent = start(protocol(), neighbour());
        assertTrue(agent.agent().pluginTypes().containsKey(protocol().type()),
                "no plugin of type " + protocol().type() + " on the class path: " + agent.agent().pluginTypes());
        ProtocolInfo info = agent.agent().protocols().stream().filter(p -> p.name().equals(protocol().name()))
                .findFirst().orElseThrow(() -> new AssertionError("protocol " + protocol().name()
                        + " did not open; the agent's log says why"));
        assertEquals(protocol().type(), info.type());
        List<String> sensors = sensorsOf(agent, protocol().name());
        assertFalse(sensors.isEmpty(), "protocol " + protocol().name() + " serves no sensor");
        assertTrue(sensors.containsAll(requiredSensors()), "missing sensors: required " + requiredSensors()
                + ", served " + sensors);
        assertEquals(sensors.size(), info.sensorCount(), "the protocol's sensor count");

        KitSession s = agent.session();
        for (String id : sensors) {
            String sensorMl = s.ok(new Call.DescribeSensor(id), Result.Document.class).xml();
            SensorDescription d = parse(() -> SensorMl.read(sensorMl), id + "'s SensorML", sensorMl);
            assertEquals(id, d.id(), sensorMl);
            assertEquals(protocol().name(), d.protocol(), "the protocol " + id + "'s description names");
            String cml = s.ok(new Call.ListCommands(id), Result.Document.class).xml();
            List<CommandDescription> commands = parse(() -> Cml.read(cml), id + "'s command list", cml);
            assertTrue(commands.stream().anyMatch(c -> c.id().equals(readCommand(id))),
                    id + " does not list its read command '" + readCommand(id) + "': " + cml);
            checkReading(id, s.read(id, readCommand(id), Map.of()));
        }
        neighbourServes(s);
    }

    private interface Parse<T> {
        T run() throws DocumentException;
    }

    private static <T> T parse(Parse<T> parse, String what, String xml) {
        try {
            T parsed = parse.run();
            assertNotNull(parsed, what);
            return parsed;
        } catch (DocumentException e) {
            throw new AssertionError(what + " is not valid: " + e.getMessage() + "\n" + xml, e);
        }
    }

    /**
     * Three rounds of open, serve (every sensor read, one stream) and close. After the first, the
     * threads the plugin started must end but for daemons: one thread a library shares across the
     * JVM (a client's request timer, say) may start at its first use and stay. After each further
     * round, no thread may be left that was not there before it: a plugin that leaves a thread per
     * protocol it opens fails here.
     */
    @Test
    void closingTheAgentEndsEveryThreadThePluginStartedAndTheProtocolOpensAgain() throws Exception {
        // The JDK's one delay scheduler (behind CompletableFuture.orTimeout, which the device lane's
        // request timeout uses) starts at its first use and lives as long as the JVM. A plugin whose
        // reads are mostly answered from what its device pushed may first need it in any round, so
        // it is started here, before the rounds count threads.
        CompletableFuture.delayedExecutor(0, TimeUnit.MILLISECONDS).execute(() -> { });
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        for (int round = 1; round <= 3; round++) {
            KitAgent agent = start(protocol(), neighbour());
            KitSession s = agent.session();
            readsEverySensor(agent, s);
            String first = sensorsOf(agent, protocol().name()).get(0);
            long stream = stream(s, first, 10);
            s.frames(stream, 3).forEach(f -> checkReading(first, f.reading()));
            agent.close();
            Set<Thread> since = before;
            boolean daemonsMayStay = round == 1;
            String what = round == 1 ? "the non-daemon threads started in round 1 to end"
                    : "the threads started in round " + round + " to end";
            try {
                await(what, () -> leftThreads(since, daemonsMayStay).isEmpty());
            } catch (AssertionError e) {
                throw new AssertionError("threads left after the agent closed in round " + round + ": "
                        + describe(leftThreads(since, daemonsMayStay)), e);
            }
            before = Set.copyOf(Thread.getAllStackTraces().keySet());
        }
    }

    @Test
    void removingTheProtocolClosesItAndAddingItAgainServesItAgain() throws Exception {
        KitAgent agent = startObserved(protocol(), neighbour());
        KitSession s = agent.session();
        s.ok(new Call.SubscribeEvents(), Result.Ack.class);
        readsEverySensor(agent, s);
        List<String> sensors = sensorsOf(agent, protocol().name());

        s.ok(new Call.RemoveProtocol(protocol().name()), Result.Ack.class);
        s.events(e -> e.type() == Event.Type.PROTOCOL_REMOVED && e.subject().equals(protocol().name()), 1,
                "the protocol's removal");
        ProtocolCalls removed = calls(protocol().name());
        assertTrue(removed.closed(), "the agent did not close the removed protocol");
        int callsWhenRemoved = removed.calls().size();
        assertTrue(sensorsOf(agent, protocol().name()).isEmpty(), "sensors left after the protocol was removed");
        assertEquals(ErrorCode.UNKNOWN_SENSOR, s.fails(new Call.Execute(sensors.get(0), readCommand(sensors.get(0)),
                Map.of())).code());
        await("the protocol's lane to end", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("device-" + protocol().name())));
        neighbourServes(s);
        assertEquals(callsWhenRemoved, removed.calls().size(), () -> "the removed protocol was called: "
                + removed.calls());

        s.ok(new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(protocol())))), Result.Protocols.class);
        assertEquals(sensors, sensorsOf(agent, protocol().name()), "the sensors served after adding it again");
        readsEverySensor(agent, s);
    }

    // ---------------------------------------------------------------- concurrent callers

    @Test
    void concurrentCallersEachGetACorrectReadingAndADeviceIsNeverCalledConcurrentlyUnlessItSaysSo() throws Exception {
        KitAgent agent = startObserved(protocol(), neighbour());
        List<String> sensors = sensorsOf(agent, protocol().name());
        assertFalse(sensors.isEmpty(), "protocol " + protocol().name() + " serves no sensor");
        KitSession streaming = agent.session();
        long stream = stream(streaming, sensors.get(0), 5);

        List<CompletableFuture<Void>> callers = new ArrayList<>();
        for (int c = 0; c < CALLERS; c++) {
            KitSession s = agent.session();
            int offset = c;
            callers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < READS_PER_CALLER; i++) {
                    String id = sensors.get((offset + i) % sensors.size());
                    checkReading(id, s.read(id, readCommand(id), Map.of()));
                }
            }, r -> new Thread(r, "tck-caller-" + offset).start()));
        }
        for (CompletableFuture<Void> caller : callers) {
            caller.get(KitSession.WAIT_MS * 3, TimeUnit.MILLISECONDS);
        }
        streaming.frames(stream, 5).forEach(f -> checkReading(sensors.get(0), f.reading()));

        ProtocolCalls calls = calls(protocol().name());
        assertFalse(calls.calls().isEmpty(), "no read reached the plugin");
        // The agent serializes the requests of a protocol that reaches a device unless the protocol
        // says it takes them concurrently; the other protocols are called from many threads at once
        // and must be thread-safe, which the readings above check.
        if (calls.device() && !calls.concurrentRequests()) {
            assertEquals(1, calls.mostAtOnce(), "two requests ran on the device at once");
        }
    }

    // ---------------------------------------------------------------- bad configuration

    @Test
    void eachBadConfigurationIsRefusedAtLoadWithAMessageNamingWhatIsWrongWhileTheOtherProtocolsServe()
            throws Exception {
        List<BadConfiguration> bad = badConfigurations();
        assertFalse(bad.isEmpty(), "a plugin's test lists at least one configuration the plugin must refuse");
        KitAgent agent = start(protocol(), neighbour());
        KitSession s = agent.session();
        for (BadConfiguration b : bad) {
            Result.Failure f = s.fails(new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(b.config())))));
            assertTrue(f.message().contains(b.named()), () -> "the refusal of " + b.config() + " does not name '"
                    + b.named() + "': " + f.code() + " " + f.message());
            assertTrue(Set.of(ErrorCode.PLUGIN_FAILURE, ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_DOCUMENT)
                    .contains(f.code()), () -> "the refusal of " + b.config() + ": " + f.code() + " " + f.message());
            // The agent says "failed opening" when open threw something else than a PluginException.
            assertFalse(f.message().contains("failed opening protocol"), () -> "the plugin threw an unexpected"
                    + " exception rather than a PluginException for " + b.config() + ": " + f.message());
            assertTrue(agent.agent().protocols().stream().noneMatch(p -> p.name().equals(b.config().name())),
                    "a refused protocol was kept: " + b.config().name());
            readsEverySensor(agent, s);
            neighbourServes(s);
        }

        // At start, the bad protocols are left out and the others open.
        List<ProtocolConfig> platform = new ArrayList<>();
        bad.forEach(b -> platform.add(b.config()));
        platform.add(neighbour());
        KitAgent starting = start(platform.toArray(ProtocolConfig[]::new));
        assertEquals(List.of(neighbour().name()),
                starting.agent().protocols().stream().map(ProtocolInfo::name).toList());
        neighbourServes(starting.session());
    }

    // ---------------------------------------------------------------- bounds

    /**
     * Each bounded argument of each command of each sensor of the protocol, given just below its
     * minimum and just above its maximum (the command's other arguments within theirs), and each
     * streamable command's interval just outside its streaming bounds: the agent refuses the call,
     * naming the argument (or the interval), and the plugin never sees it. Skipped for a plugin
     * whose commands take no bounded argument and cannot be streamed.
     */
    @Test
    void everyArgumentOutOfItsBoundsIsRefusedByTheAgentBeforeThePluginSeesIt() throws Exception {
        KitAgent agent = startObserved(protocol(), neighbour());
        KitSession s = agent.session();
        ProtocolCalls seen = calls(protocol().name());
        int refused = 0;
        for (String id : sensorsOf(agent, protocol().name())) {
            String cml = s.ok(new Call.ListCommands(id), Result.Document.class).xml();
            for (CommandDescription c : parse(() -> Cml.read(cml), id + "'s command list", cml)) {
                for (long interval : outsideStreaming(c)) {
                    int before = seen.calls().size();
                    Call call = new Call.SetupStream(id, c.id(), Map.of(), interval);
                    Result.Failure f = s.fails(call, ErrorCode.INVALID_ARGUMENT);
                    assertTrue(f.message().contains("interval"), () -> "the refusal of " + call
                            + " does not name the interval: " + f.message());
                    List<String> after = seen.calls();
                    List<String> reached = after.subList(before, after.size()).stream()
                            .filter(x -> !x.equals("connect")).toList();
                    assertTrue(reached.isEmpty(), () -> "the plugin was called for " + call + ": " + reached);
                    refused++;
                }
                for (Argument a : c.arguments()) {
                    for (Double outside : outside(a)) {
                        Map<String, String> arguments = withinBounds(c, a);
                        if (arguments == null) {
                            continue;
                        }
                        arguments.put(a.name(), text(a, outside));
                        int before = seen.calls().size();
                        Call call = new Call.Execute(id, c.id(), arguments);
                        Result.Failure f = s.fails(call, ErrorCode.INVALID_ARGUMENT);
                        assertTrue(f.message().contains(a.name()), () -> "the refusal of " + call
                                + " does not name the argument: " + f.message());
                        List<String> after = seen.calls();
                        List<String> reached = after.subList(before, after.size()).stream()
                                .filter(x -> !x.equals("connect")).toList();
                        assertTrue(reached.isEmpty(), () -> "the plugin was called for " + call + ": " + reached);
                        refused++;
                    }
                }
            }
        }
        assumeTrue(refused > 0, "the protocol's commands take no bounded argument and cannot be streamed");
        readsEverySensor(agent, s);
    }

    /** Intervals just outside a command's streaming bounds (none for a command that cannot be streamed). */
    private static List<Long> outsideStreaming(CommandDescription c) {
        if (c.streaming() == null) {
            return List.of();
        }
        List<Long> out = new ArrayList<>();
        if (c.streaming().minIntervalMs() > 0) {
            out.add(c.streaming().minIntervalMs() - 1);
        }
        if (c.streaming().maxIntervalMs() < Long.MAX_VALUE) {
            out.add(c.streaming().maxIntervalMs() + 1);
        }
        return out;
    }

    /** Values just outside an argument's bounds. */
    private static List<Double> outside(Argument a) {
        if (a.type() != Argument.Type.INTEGER && a.type() != Argument.Type.DECIMAL) {
            return List.of();
        }
        List<Double> out = new ArrayList<>();
        if (a.min() != null) {
            out.add(a.min() - 1);
        }
        if (a.max() != null) {
            out.add(a.max() + 1);
        }
        return out;
    }

    /** The command's arguments but {@code except}, each within its bounds; null when one cannot be made up. */
    private static Map<String, String> withinBounds(CommandDescription c, Argument except) {
        Map<String, String> out = new HashMap<>();
        for (Argument a : c.arguments()) {
            if (a == except || a.optional() || a.defaultValue() != null) {
                continue;
            }
            if (a.type() != Argument.Type.INTEGER && a.type() != Argument.Type.DECIMAL) {
                return null;
            }
            out.put(a.name(), text(a, a.min() != null ? a.min() : a.max() != null ? a.max() : 0));
        }
        return out;
    }

    private static String text(Argument a, double value) {
        return a.type() == Argument.Type.INTEGER ? Long.toString((long) value) : Double.toString(value);
    }

    // ---------------------------------------------------------------- threads

    private Set<Thread> leftThreads(Set<Thread> before, boolean daemonsMayStay) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && !jvmThread(t) && !fixtureThread(t)
                        && !(daemonsMayStay && t.isDaemon()))
                .collect(Collectors.toSet());
    }

    /** Threads the JVM starts on its own when asked for a service (the common pool, the process reaper). */
    private static boolean jvmThread(Thread t) {
        String name = t.getName();
        return name.startsWith("ForkJoinPool.commonPool-worker") || name.equals("process reaper")
                || name.equals("Common-Cleaner") || name.equals("Attach Listener");
    }

    private static String describe(Set<Thread> threads) {
        StringBuilder out = new StringBuilder();
        for (Thread t : threads) {
            out.append("\n  ").append(t.getName()).append(t.isDaemon() ? " (daemon)" : "");
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < Math.min(8, stack.length); i++) {
                out.append("\n      at ").append(stack[i]);
            }
        }
        return out.toString();
    }
}
