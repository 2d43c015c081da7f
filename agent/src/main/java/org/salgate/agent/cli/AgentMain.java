package org.salgate.agent.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.core.Counts;
import org.salgate.agent.stream.SlowConsumerSettings;
import org.salgate.program.ProgramDefaults;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.wire.Codecs;
import org.salgate.wire.Framing;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.SensorInfo;
import org.salgate.model.SlowConsumerPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs a SAL agent until Ctrl-C or SIGTERM. */
@Command(name = "salgate-agent", mixinStandardHelpOptions = true, versionProvider = AgentMain.Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs a SAL agent: loads sensor plugins and serves their sensors to remote clients.")
public final class AgentMain implements Callable<Integer> {

    /** Exit code for a bad option value (unknown transport or codec, unreadable configuration). */
    static final int EXIT_USAGE = 2;
    /** Exit code when the agent cannot start (port in use, ...). */
    static final int EXIT_FAILED = 1;

    static {
        // slf4j-simple's settings, for a class path that has it rather than Logback (agent.jar has
        // Logback, set by Logging; test modules running AgentMain have slf4j-simple); set before
        // the first logger, -D still wins.
        Map.of("org.slf4j.simpleLogger.defaultLogLevel", "info",
                "org.slf4j.simpleLogger.showDateTime", "true",
                "org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd HH:mm:ss.SSS",
                "org.slf4j.simpleLogger.showThreadName", "false",
                "org.slf4j.simpleLogger.showShortLogName", "true",
                "org.slf4j.simpleLogger.levelInBrackets", "true")
                .forEach((key, value) -> {
                    if (System.getProperty(key) == null) {
                        System.setProperty(key, value);
                    }
                });
    }

    private static final Logger LOG = LoggerFactory.getLogger(AgentMain.class);
    /** How long a stop asked for during the start waits for the start to end. */
    private static final long STOP_DURING_START_WAIT_S = 60;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--transport", defaultValue = Transports.DEFAULT, paramLabel = "NAME",
            description = "Transport to serve clients with (default: ${DEFAULT-VALUE}); see --list-transports.")
    String transport;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: "
            + "${DEFAULT-VALUE}); any other address needs TLS and --tokens, or --insecure.")
    String host;

    @Option(names = "--port", defaultValue = "" + Agent.DEFAULT_PORT,
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--codec", defaultValue = Codecs.DEFAULT, paramLabel = "NAME",
            description = "Codec clients must use (default: ${DEFAULT-VALUE}).")
    String codec;

    @Option(names = "--config", paramLabel = "PCML_FILE",
            description = "Platform configuration (PCML) to run instead of the default dummy + OS platform.")
    Path config;

    @Option(names = "--config-file", paramLabel = "FILE",
            description = "Read options from this YAML file, a long option without its dashes a key (port: 7431,"
            + " device-allow: [HOST:PORT, ...]); the environment (SALGATE_PORT, ...) and the command line win"
            + " over it (default: $SALGATE_CONFIG_FILE, else none).")
    Path configFile;

    @Option(names = "--config-dir", paramLabel = "DIR",
            description = "Read the *.yaml fragments of DIR in name order after --config-file, a later value"
            + " winning and a list replacing (default: $SALGATE_CONFIG_DIR, else conf.d beside --config-file if"
            + " it exists).")
    Path configDir;

    @Option(names = "--check", description = "Check the configuration (files, environment, options, the files they"
            + " name, the PCML) without starting: exit 0 when the agent can start, else 2 with a line per problem.")
    boolean check;

    @Option(names = "--print-config", description = "Print the effective configuration as YAML, secrets masked,"
            + " and exit.")
    boolean printConfig;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the agent keeps what it writes: the MQTT store (unless --mqtt-store), the InfluxDB"
            + " store (unless --influx-store) and the --tls-self-signed certificate (default: .salgate in the home directory of the agent's user).")
    Path stateDir;

    @Option(names = "--log-level", defaultValue = "info", paramLabel = "LEVEL",
            description = "Level of the log: error, warn, info, debug or trace (default: ${DEFAULT-VALUE}).")
    String logLevel;

    @Option(names = "--log-levels", paramLabel = "LOGGER=LEVEL",
            description = "Level of one component, a logger name or its prefix, such as"
            + " org.salgate.agent.device=debug; repeatable (default: none).")
    Map<String, String> logLevels = new LinkedHashMap<>();

    @Option(names = "--log-format", defaultValue = "text", paramLabel = "FORMAT",
            description = "text (a line per event, a stack trace joined on it with ' | ') or json (a JSON object"
            + " per line) (default: ${DEFAULT-VALUE}).")
    String logFormat;

    @Option(names = "--dummy-sensors", defaultValue = "" + Agent.DEFAULT_DUMMY_SENSORS, paramLabel = "N",
            description = "Dummy sensors in the default platform (default: ${DEFAULT-VALUE}).")
    int dummySensors;

    @Option(names = "--dummy-payload-bytes", defaultValue = "-1", paramLabel = "N",
            description = "Default size of a dummy 'payload' reading (default: the plugin's, 64).")
    int dummyPayloadBytes;

    @Option(names = "--max-frame-bytes", defaultValue = "" + Framing.DEFAULT_MAX_FRAME_BYTES, paramLabel = "N",
            description = "Largest frame accepted from a client (default: ${DEFAULT-VALUE}).")
    int maxFrameBytes;

    @Option(names = "--write-high-water-bytes", defaultValue = "" + ServerOptions.DEFAULT_WRITE_HIGH_WATER_BYTES,
            paramLabel = "N", description = "Outbound bytes queued for a client above which it counts as slow "
            + "and its streams apply their slow-consumer policy (default: ${DEFAULT-VALUE}).")
    int writeHighWaterBytes;

    @Option(names = "--write-low-water-bytes", defaultValue = "" + ServerOptions.DEFAULT_WRITE_LOW_WATER_BYTES,
            paramLabel = "N", description = "Queued bytes below which a slow client may take readings again "
            + "(default: ${DEFAULT-VALUE}).")
    int writeLowWaterBytes;

    @Option(names = "--max-queued-bytes", defaultValue = "0", paramLabel = "N",
            description = "Most outbound bytes queued for one client before its session is closed, within the "
            + "memory budget of --max-buffered-bytes (default: 0, the high-water mark plus four of the largest "
            + "frames).")
    long maxQueuedBytes;

    @Option(names = "--slow-consumer-policy", defaultValue = "block", paramLabel = "POLICY",
            converter = PolicyConverter.class,
            description = "What a stream does when its client reads slower than it produces, unless the client "
            + "chose: block, drop-oldest or disconnect (default: ${DEFAULT-VALUE}).")
    SlowConsumerPolicy slowConsumerPolicy;

    @Option(names = "--drop-oldest-readings", defaultValue = "" + SlowConsumerSettings.DEFAULT_RING_READINGS,
            paramLabel = "N", description = "Readings a drop-oldest stream holds for a slow client "
            + "(default: ${DEFAULT-VALUE}).")
    int dropOldestReadings;

    @Option(names = "--disconnect-after-ms", defaultValue = "10000", paramLabel = "MS",
            description = "How long a disconnect stream's client may not read before its session is closed "
            + "(default: ${DEFAULT-VALUE}).")
    long disconnectAfterMs;

    @Option(names = "--max-sessions", defaultValue = "" + ServerOptions.Limits.DEFAULT_MAX_SESSIONS, paramLabel = "N",
            description = "Most client sessions served at once; a client past it is refused OVERLOADED "
            + "(default: ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(names = "--hello-timeout-ms", defaultValue = "10000", paramLabel = "MS",
            description = "How long a connection may take to complete its hello before it is closed "
            + "(default: ${DEFAULT-VALUE}).")
    long helloTimeoutMs;

    @Option(names = "--idle-timeout-ms", defaultValue = "0", paramLabel = "MS",
            description = "How long a session with no stream, no event subscription and no request in flight may "
            + "stay silent before it is closed (default: 0, never).")
    long idleTimeoutMs;

    @Option(names = "--max-buffered-bytes", defaultValue = "0", paramLabel = "N",
            description = "The memory budget of all connections together: unfinished frames, bodies and messages, "
            + "and answers and stream frames queued for clients; at the bound the connection holding the most is "
            + "closed (default: 0, 256 MiB or a quarter of the maximum heap if less).")
    long maxBufferedBytes;

    @Option(names = "--agent-id", paramLabel = "ID", description = "Name given to clients (default: salgate@<host>).")
    String agentId;

    @Option(names = "--allow-origin", paramLabel = "ORIGIN", split = ",",
            description = "http transport: a web origin (scheme://host[:port]) besides the agent's own whose pages "
            + "may open a WebSocket and send POST, PUT, PATCH and DELETE requests; repeatable (default: none).")
    List<String> allowOrigins = new ArrayList<>();

    @Option(names = "--allow-host", paramLabel = "NAME", split = ",",
            description = "http transport: a host name or address requests may name besides the agent's own (the "
            + "loopback names, its addresses, its certificate's names), such as a reverse proxy's; repeatable "
            + "(default: none).")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--transport-property", paramLabel = "NAME=VALUE",
            description = "A setting of the transport, such as http.bodyTimeoutMillis=30000; repeatable (each "
            + "transport documents its own).")
    Map<String, String> transportProperties = new LinkedHashMap<>();

    @Mixin
    AccessOptions access = new AccessOptions();

    @Option(names = "--list-transports", description = "Print the transports found and exit.")
    boolean listTransports;

    @Mixin
    GatewayOptions gateway;

    @Mixin
    TlsOptions tls;

    /** Where the options come from besides the command line: {@code SALGATE_*} variables. */
    private final Map<String, String> environment;
    /** The options of every source, once gathered; null while only the command line is parsed. */
    private Settings settings;
    /** Gathers them again, for a reload. */
    private Supplier<Settings> sources;

    public AgentMain() {
        this(System.getenv());
    }

    AgentMain(Map<String, String> environment) {
        this.environment = environment;
    }

    public static void main(String[] args) {
        ProgramDefaults.apply();
        Logging.configure("info", Map.of(), "text");
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses the arguments and runs; returns the exit code. */
    static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The command line, for callers that redirect its output or read its options. */
    public static CommandLine commandLine() {
        return new CommandLine(new AgentMain());
    }

    /** The command line reading these variables as its environment. */
    static CommandLine commandLine(Map<String, String> environment) {
        return new CommandLine(new AgentMain(environment));
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (settings == null) {
            return runWithEverySource(out, err);
        }
        settings.warnings().forEach(err::println);
        err.flush();
        Map<String, TransportProvider> transports = Transports.available();
        if (listTransports) {
            transports.values().forEach(t -> out.println(t.name() + "\t" + t.description()));
            out.flush();
            return 0;
        }
        if (printConfig) {
            out.print(EffectiveConfig.yaml(spec, settings));
            out.flush();
            return 0;
        }
        List<String> problems = new ArrayList<>();
        if (!transports.containsKey(transport)) {
            problems.add("unknown transport '" + transport + "'; available: " + String.join(", ", transports.keySet()));
        }
        if (!Codecs.available().containsKey(codec)) {
            problems.add("unknown codec '" + codec + "'; available: " + String.join(", ", Codecs.available().keySet()));
        }
        problems.addAll(StartupProblems.ofOptions(port, dummySensors, maxFrameBytes));
        String hostProblem = StartupProblems.ofHost(host);
        if (hostProblem != null) {
            problems.add(hostProblem);
        }
        problems.addAll(Logging.problems(logLevel, logLevels, logFormat));
        String originProblem = originProblem(allowOrigins);
        if (originProblem != null) {
            problems.add(originProblem);
        }
        if (!problems.isEmpty()) {
            return refuse(err, problems);
        }
        if (!check) {
            Logging.configure(logLevel, logLevels, logFormat);
        }
        BindPolicy bind = BindPolicy.decide(host, tls.isConfigured(), access.tokensConfigured(), access.insecure);
        if (!bind.allowed()) {
            return refuse(err, List.of(bind.message()));
        }
        Map<String, String> properties = transportProperties();
        AgentBuilder builder;
        try {
            Consumer<ServerOptions.Builder> bound = o -> o.properties(properties).maxFrameBytes(maxFrameBytes)
                    .writeWaterMarks(writeLowWaterBytes, writeHighWaterBytes).maxQueuedBytes(maxQueuedBytes)
                    .maxSessions(maxSessions).helloTimeout(Duration.ofMillis(helloTimeoutMs))
                    .idleTimeout(Duration.ofMillis(idleTimeoutMs)).maxBufferedBytes(maxBufferedBytes > 0
                            ? maxBufferedBytes : ServerOptions.Limits.DEFAULT_MAX_BUFFERED_BYTES);
            ServerOptions.Builder checked = ServerOptions.builder();
            bound.accept(checked);
            checked.build();
            builder = Agent.builder().transport(transports.get(transport)).host(host).port(port).codec(codec)
                    .serverOptions(bound)
                    .slowConsumers(new SlowConsumerSettings(slowConsumerPolicy, dropOldestReadings,
                            Duration.ofMillis(disconnectAfterMs)));
        } catch (IllegalArgumentException e) {
            return refuse(err, List.of(e.getMessage()));
        }
        try {
            // a check writes nothing: the self-signed certificate is made at the start only
            if (!(check && tls.selfSigned)) {
                builder.tls(tls.config(host, out, stateDirectory()));
            }
        } catch (IOException | IllegalArgumentException e) {
            return refuse(err, List.of("cannot set up TLS: " + e.getMessage()));
        }
        try {
            access.applyTo(builder);
        } catch (IllegalArgumentException e) {
            return refuse(err, List.of(e.getMessage()));
        }
        if (bind.message() != null && !check) {
            LOG.warn(bind.message());
        }
        if (agentId != null) {
            builder.agentId(agentId);
        }
        try {
            gateway.apply(builder, h -> BindPolicy.decide(h, tls.isConfigured(), access.tokensConfigured(),
                    access.insecure, "serve metrics", "serving metrics", "read the agent's metrics (its sessions,"
                            + " requests and streams)"), stateDirectory());
        } catch (IOException | IllegalArgumentException e) {
            return refuse(err, List.of(e.getMessage()));
        }
        PlatformConfig platform;
        try {
            platform = platform();
        } catch (IllegalArgumentException e) {
            return refuse(err, List.of(e.getMessage()));
        }
        builder.platform(platform);
        if (check) {
            out.println("the configuration can start the agent"
                    + (settings.files().isEmpty() ? "" : " (read " + settings.files().stream().map(Path::toString)
                    .collect(Collectors.joining(", ")) + ")"));
            out.flush();
            return 0;
        }
        // The stop is hooked before the start: a SIGTERM while the agent starts (its MQTT bridge may
        // already say online) waits for the start to end, then closes what started.
        AtomicReference<Agent> started = new AtomicReference<>();
        CountDownLatch startEnded = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                startEnded.await(STOP_DURING_START_WAIT_S, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Agent a = started.get();
            if (a != null) {
                a.close();
                LOG.info("stopped");
            }
            stopped.countDown();
        }, "sal-shutdown"));
        Agent agent;
        try {
            agent = builder.start();
        } catch (IOException | RuntimeException e) {
            startEnded.countDown();
            err.println(StartupProblems.ofStart(host, port, e));
            return EXIT_FAILED;
        }
        started.set(agent);
        startEnded.countDown();
        logLoaded(agent);
        logLeakDetection();
        if (new Reload(agent, this, platform, sources, environment).onHangUp()) {
            LOG.info("SIGHUP (systemctl reload) reads the configuration again");
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /**
     * Gathers the options of the configuration file, its fragments and the environment, and runs
     * with them and the command line's, which win.
     */
    private int runWithEverySource(PrintWriter out, PrintWriter err) {
        Settings gathered = gatherSettings();
        if (!gathered.problems().isEmpty()) {
            gathered.problems().forEach(err::println);
            err.flush();
            return EXIT_USAGE;
        }
        AgentMain effective = new AgentMain(environment);
        effective.settings = gathered;
        effective.sources = this::gatherSettings;
        CommandLine command = new CommandLine(effective);
        command.setOut(out);
        command.setErr(err);
        return command.execute(gathered.arguments().toArray(String[]::new));
    }

    /** The options of every source as they are now: the files are read again at each call. */
    private Settings gatherSettings() {
        Path file = configFile != null ? configFile : fromEnvironment("config-file");
        Path dir = configDir != null ? configDir : fromEnvironment("config-dir");
        if (dir == null && file != null) {
            Path besides = file.toAbsolutePath().resolveSibling(CONFIG_DIR_BESIDE_FILE);
            dir = Files.isDirectory(besides) ? besides : null;
        }
        return Settings.gather(spec, spec.commandLine().getParseResult(), environment, file, dir);
    }

    /** The fragments' directory read when no --config-dir is given: this, beside the configuration file. */
    static final String CONFIG_DIR_BESIDE_FILE = "conf.d";

    private Path fromEnvironment(String key) {
        String value = environment.get(Settings.environmentVariable(key));
        return value == null || value.isBlank() ? null : Path.of(value);
    }

    /** Says each problem on its line, with where its option was set; the exit code of a usage error. */
    private int refuse(PrintWriter err, List<String> problems) {
        problems.forEach(p -> err.println(settings.locate(p)));
        err.flush();
        return EXIT_USAGE;
    }

    /** Where the agent keeps what it writes. */
    Path stateDirectory() {
        return stateDir != null ? stateDir : Path.of(System.getProperty("user.home"), ".salgate");
    }

    /**
     * The platform to run: the PCML file of --config, or the default dummy and OS platform.
     *
     * @throws IllegalArgumentException saying why the PCML file cannot be used
     */
    PlatformConfig platform() {
        if (config == null) {
            return defaultPlatform();
        }
        try {
            return Pcml.read(Files.readString(config));
        } catch (IOException e) {
            throw new IllegalArgumentException(StartupProblems.ofConfigRead(config, e), e);
        } catch (DocumentException e) {
            throw new IllegalArgumentException(StartupProblems.ofConfigDocument(config, e.getMessage()), e);
        }
    }

    /** The http transport's properties that {@code --allow-origin} and {@code --allow-host} set. */
    static final String ALLOW_ORIGINS_PROPERTY = "http.allowOrigins";
    static final String ALLOW_HOSTS_PROPERTY = "http.allowHosts";

    /** {@code --transport-property} with {@code --allow-origin} and {@code --allow-host} added to theirs. */
    private Map<String, String> transportProperties() {
        Map<String, String> properties = new LinkedHashMap<>(transportProperties);
        join(properties, ALLOW_ORIGINS_PROPERTY, allowOrigins);
        join(properties, ALLOW_HOSTS_PROPERTY, allowHosts);
        return properties;
    }

    private static void join(Map<String, String> properties, String name, List<String> values) {
        List<String> all = new ArrayList<>();
        String given = properties.get(name);
        if (given != null && !given.isBlank()) {
            all.add(given);
        }
        values.stream().map(String::trim).filter(v -> !v.isEmpty()).forEach(all::add);
        if (!all.isEmpty()) {
            properties.put(name, String.join(",", all));
        }
    }

    /** What is wrong with an {@code --allow-origin} value, or null. */
    static String originProblem(List<String> origins) {
        for (String origin : origins) {
            if (!origin.trim().matches("(?i)https?://[^/\\s@]+/?")) {
                return "--allow-origin '" + origin + "' is not a web origin: give scheme, host and port only, such as "
                        + "https://console.example:8443";
            }
        }
        return null;
    }

    private PlatformConfig defaultPlatform() {
        return Agent.defaultPlatform(dummySensors, dummyPayloadBytes);
    }

    /** Which level Netty's buffer leak detector runs at: main turns it off unless the operator chose one. */
    private static void logLeakDetection() {
        String level = ProgramDefaults.leakDetection();
        if (ProgramDefaults.NETTY_LEAK_DETECTION_DEFAULT.equalsIgnoreCase(level)) {
            LOG.info("Netty's buffer leak detection: disabled (-D{}=simple or paranoid turns it on)",
                    ProgramDefaults.NETTY_LEAK_DETECTION);
        } else {
            LOG.info("Netty's buffer leak detection: {} (-D{})", level, ProgramDefaults.NETTY_LEAK_DETECTION);
        }
    }

    private static void logLoaded(Agent agent) {
        for (ProtocolInfo p : agent.protocols()) {
            String ids = agent.sensors().stream().filter(s -> s.protocol().equals(p.name())).map(SensorInfo::id)
                    .collect(Collectors.joining(", "));
            LOG.info("protocol {} (type {}, endpoint {}): {}: {}", p.name(), p.type(), p.endpoint(),
                    Counts.of(p.sensorCount(), "sensor"), ids);
        }
        LOG.info("listening on {} ({}, codec {}, {}); Ctrl-C stops", agent.listenAddress(), agent.transportName(),
                agent.codecName(), agent.tls() ? "TLS" : "no TLS");
    }

    /** The version from the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = AgentMain.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"salgate agent " + p.getProperty("version", "unknown")};
        }
    }

    /** Reads a policy by its wire name. */
    static final class PolicyConverter implements picocli.CommandLine.ITypeConverter<SlowConsumerPolicy> {
        @Override
        public SlowConsumerPolicy convert(String value) {
            return SlowConsumerPolicy.parse(value);
        }
    }
}
