package org.salgate.agent.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.salgate.agent.AgentBuilder;
import org.salgate.discovery.DiscoveryExtension;
import org.salgate.metrics.GatewayMetrics;
import org.salgate.metrics.MetricsExtension;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.mqtt.StreamSpec;
import org.salgate.transport.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The agent's options for what lies past the gateway: the MQTT bridge, the InfluxDB writer
 * ({@link InfluxOptions}), the Prometheus metrics endpoint and the mDNS announcement. Nothing is
 * opened unless its options are given.
 */
public final class GatewayOptions {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayOptions.class);

    /** The environment variable read for the MQTT password when no password file is given. */
    static final String PASSWORD_ENV = "SALGATE_MQTT_PASSWORD";

    @Option(names = "--mqtt-url", paramLabel = "URL",
            description = "Publish to the MQTT broker at this URL (tcp://host:1883 or ssl://host:8883); off unless given.")
    String mqttUrl;

    @Option(names = "--mqtt-client-id", paramLabel = "ID", description = "MQTT client id (default: salgate-<agent id>).")
    String mqttClientId;

    @Option(names = "--mqtt-username", paramLabel = "USER", description = "MQTT user name.")
    String mqttUsername;

    @Option(names = "--mqtt-password-file", paramLabel = "FILE",
            description = "File holding the MQTT password (first line); otherwise $" + PASSWORD_ENV + " if set.")
    Path mqttPasswordFile;

    @Option(names = "--mqtt-ca", paramLabel = "FILE",
            description = "PEM file of the CA certificate(s) to trust for an ssl:// broker, and no other"
                    + " (default: the JVM's trust store); the broker's certificate must name the URL's host.")
    Path mqttCa;

    @Option(names = "--mqtt-qos", defaultValue = "1", paramLabel = "0|1|2",
            description = "QoS of readings and events (default: ${DEFAULT-VALUE}).")
    int mqttQos;

    @Option(names = "--mqtt-topic-prefix", defaultValue = "salgate", paramLabel = "PREFIX",
            description = "First topic level(s) (default: ${DEFAULT-VALUE}): topics are PREFIX/<agent id>/...")
    String mqttTopicPrefix;

    /** Before a path, a {@code --mqtt-stream} (or {@code --influx-stream}) names a file of streams rather than one stream. */
    static final String STREAMS_FILE = "file:";

    @Option(names = "--mqtt-stream", paramLabel = "SENSOR[:COMMAND]@INTERVAL [OPTION=VALUE...]",
            description = "Publish a sensor command's readings at an interval, e.g. DUMMY_0@100ms, FREE_MEMORY:read@1s;"
                    + " SENSOR may be * (every sensor, those added later too) or a prefix and * (lab.*);"
                    + " file:PATH reads streams from a file, one a line, read again every second"
                    + " (repeatable; command default: read). Options after a space report by exception or"
                    + " aggregate: deadband=N or deadband=N%% (send a value once it moves beyond it),"
                    + " heartbeat=DURATION (with a deadband: send anyway after this silence), window=DURATION"
                    + " (one min/max/mean/count message per window), e.g. 'CPU_LOAD@1s deadband=5%% heartbeat=1m'.")
    List<String> mqttStreams = new ArrayList<>();

    @Option(names = "--mqtt-no-events", description = "Do not publish agent events.")
    boolean mqttNoEvents;

    @Option(names = "--mqtt-homeassistant",
            description = "Publish a Home Assistant discovery document (retained) for every stream, so that Home"
                    + " Assistant's MQTT integration makes a sensor entity of it; off by default.")
    boolean mqttHomeAssistant;

    @Option(names = "--mqtt-homeassistant-prefix", defaultValue = "homeassistant", paramLabel = "PREFIX",
            description = "Discovery prefix Home Assistant listens on (default: ${DEFAULT-VALUE}).")
    String mqttHomeAssistantPrefix;

    @Option(names = "--mqtt-store", paramLabel = "FILE",
            description = "Store-and-forward file (default: mqtt-<client id>.mv.db in --state-dir).")
    Path mqttStore;

    @Option(names = "--mqtt-store-max", defaultValue = "" + MqttBridgeConfig.DEFAULT_MAX_STORED, paramLabel = "N",
            description = "Messages kept while the broker is unreachable; beyond, the oldest are dropped (default: ${DEFAULT-VALUE}).")
    long mqttStoreMax;

    @Option(names = "--mqtt-store-max-age", defaultValue = "24h", paramLabel = "DURATION",
            description = "Messages older than this are dropped unsent (default: ${DEFAULT-VALUE}; units ms, s, m, h, d).")
    String mqttStoreMaxAge;

    @Option(names = "--mqtt-reconnect-max", defaultValue = "10s", paramLabel = "DURATION",
            description = "Longest wait between attempts to reach the broker; waits double from 500ms (default: ${DEFAULT-VALUE}).")
    String mqttReconnectMax;

    @Option(names = "--mqtt-drain-rate", defaultValue = MqttBridgeConfig.DEFAULT_DRAIN_RATE, paramLabel = "N/s",
            description = "After a (re)connect, send the messages that waited at most N a second, so that a broker"
                    + " limiting a client's rate does not disconnect the bridge (default: ${DEFAULT-VALUE}; 0: no limit).")
    String mqttDrainRate;

    @Option(names = "--mqtt-format", defaultValue = "json", paramLabel = "json|influx|sparkplug",
            description = "What the MQTT bridge publishes: salgate's JSON under --mqtt-topic-prefix; readings as InfluxDB"
                    + " line protocol (one line each, nanosecond timestamps, as Telegraf's influx parser reads); or"
                    + " Sparkplug B 3.0 (spBv1.0/GROUP/.../NODE/SENSOR, protobuf; see docs/sparkplug.md)"
                    + " (default: ${DEFAULT-VALUE}).")
    String mqttFormat;

    @Option(names = "--sparkplug-group", defaultValue = "salgate", paramLabel = "GROUP",
            description = "Sparkplug B group id of the agent, with --mqtt-format sparkplug (default: ${DEFAULT-VALUE}).")
    String sparkplugGroup;

    @Option(names = "--sparkplug-node", paramLabel = "NODE",
            description = "Sparkplug B edge node id of the agent, with --mqtt-format sparkplug (default: the agent id).")
    String sparkplugNode;

    @Option(names = "--sparkplug-writes",
            description = "Let Sparkplug hosts write: a DCMD to a sensor's write command (a command of one argument, such"
                    + " as a Modbus channel's write) executes it, the agent checking the value against its bounds;"
                    + " without this option DCMDs are refused and logged.")
    boolean sparkplugWrites;

    @Mixin
    InfluxOptions influx = new InfluxOptions();

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve Prometheus metrics at http://HOST:PORT/metrics; off unless given (0 picks a free port).")
    Integer metricsPort;

    @Option(names = "--metrics-host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address of the metrics endpoint (default: ${DEFAULT-VALUE}). As with --host, any other"
                    + " address needs TLS and --tokens, or --insecure; the endpoint serves HTTPS with the agent's"
                    + " certificate when it has TLS and asks for a bearer token when it has --tokens.")
    String metricsHost;

    @Option(names = "--announce",
            description = "Announce the agent on the LAN over mDNS as _sal._tcp (id, transport, codec, and whether it"
                    + " needs TLS and tokens, in TXT); off by default.")
    boolean announce;

    @Option(names = "--announce-address", paramLabel = "ADDRESS",
            description = "Interface address to announce on (default: the listening address, or one chosen by the mDNS"
                    + " library when listening on all).")
    String announceAddress;

    /**
     * Adds what the options ask for to the agent being built; the MQTT store goes into
     * {@code stateDir} unless {@code --mqtt-store} names it.
     *
     * @throws IllegalArgumentException when an option is not usable, saying which and why
     * @throws IOException when a file an option names cannot be read, naming it
     */
    void apply(AgentBuilder builder, Function<String, BindPolicy> bindRule, Path stateDir) throws IOException {
        GatewayMetrics metrics = configureMetrics(builder, bindRule);
        configureMqtt(builder, metrics, stateDir);
        influx.apply(builder, metrics, stateDir);
        configureAnnouncement(builder);
    }

    private GatewayMetrics configureMetrics(AgentBuilder builder, Function<String, BindPolicy> bindRule) {
        if (metricsPort == null) {
            return null;
        }
        if (metricsPort < 0 || metricsPort > 65535) {
            throw new IllegalArgumentException("--metrics-port must be 0..65535, got " + metricsPort);
        }
        BindPolicy bind = bindRule.apply(metricsHost);
        if (!bind.allowed()) {
            throw new IllegalArgumentException("--metrics-host " + metricsHost + ": " + bind.message());
        }
        if (bind.message() != null) {
            LOG.warn(bind.message());
        }
        GatewayMetrics metrics = new GatewayMetrics();
        MetricsExtension.addTo(builder, metrics, metricsHost, metricsPort, null);
        return metrics;
    }

    private void configureMqtt(AgentBuilder builder, GatewayMetrics metrics, Path stateDir) throws IOException {
        if (mqttUrl == null) {
            if (!mqttStreams.isEmpty() || mqttUsername != null || mqttPasswordFile != null || mqttStore != null
                    || mqttCa != null || mqttHomeAssistant || "sparkplug".equals(mqttFormat) || sparkplugNode != null
                    || !"salgate".equals(sparkplugGroup) || sparkplugWrites) {
                throw new IllegalArgumentException("the --mqtt-* options need --mqtt-url to say which broker to use");
            }
            return;
        }
        MqttBridgeConfig.Builder b = MqttBridgeConfig.builder(mqttUrl).clientId(mqttClientId).qos(mqttQos)
                .topicPrefix(mqttTopicPrefix).events(!mqttNoEvents).storeFile(mqttStore).storeDirectory(stateDir)
                .homeAssistant(mqttHomeAssistant ? mqttHomeAssistantPrefix : null)
                .maxStored(mqttStoreMax)
                .maxAge(duration(mqttStoreMaxAge, "--mqtt-store-max-age"))
                .reconnect(Duration.ofMillis(500), duration(mqttReconnectMax, "--mqtt-reconnect-max"));
        try {
            b.drainRate(mqttDrainRate);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--mqtt-drain-rate: " + e.getMessage(), e);
        }
        if (mqttCa != null) {
            if (!mqttUrl.startsWith("ssl://")) {
                throw new IllegalArgumentException("--mqtt-ca is for an ssl:// broker; --mqtt-url is " + mqttUrl);
            }
            try {
                b.tls(TlsConfig.clientTrustingCa(mqttCa));
            } catch (IOException e) {
                throw new IOException("cannot read the MQTT broker's CA file " + mqttCa + ": " + e.getMessage(), e);
            }
        }
        String secret = secret(mqttPasswordFile, PASSWORD_ENV, "MQTT password");
        byte[] password = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
        if (mqttUsername != null || password != null) {
            b.credentials(mqttUsername, password);
        }
        for (String s : mqttStreams) {
            if (s.startsWith(STREAMS_FILE)) {
                b.streamsFile(Path.of(s.substring(STREAMS_FILE.length())));
            } else {
                try {
                    b.stream(StreamSpec.parse(s));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--mqtt-stream " + e.getMessage(), e);
                }
            }
        }
        configureFormat(b);
        MqttBridgeConfig config = b.build();
        builder.extension(MqttBridge.extension(config, bridge -> {
            if (metrics != null) {
                metrics.counter("salgate.mqtt.published", "Messages the MQTT broker acknowledged", bridge::published);
                metrics.gauge("salgate.mqtt.pending", "Messages waiting in the store-and-forward queue", bridge::pending);
                metrics.counter("salgate.mqtt.dropped", "Messages dropped: queue full, too old, or refused",
                        bridge::dropped);
                metrics.counter("salgate.mqtt.sent", "Stream messages let through by the streams' reporting options"
                        + " (readings and window aggregates)", bridge::sent);
                metrics.counter("salgate.mqtt.suppressed", "Readings not published by themselves: within a stream's"
                        + " deadband, or folded into a window aggregate", bridge::suppressed);
            }
        }));
    }

    /** --mqtt-format: salgate's JSON or line protocol as payloads, or Sparkplug B's topics and payloads. */
    private void configureFormat(MqttBridgeConfig.Builder b) {
        switch (mqttFormat) {
            case "json" -> b.payloadFormat(MqttBridgeConfig.PayloadFormat.JSON);
            case "influx" -> b.payloadFormat(MqttBridgeConfig.PayloadFormat.INFLUX);
            case "sparkplug" -> b.sparkplug(sparkplugGroup, sparkplugNode).sparkplugWrites(sparkplugWrites);
            default -> throw new IllegalArgumentException("--mqtt-format must be json, influx or sparkplug, not '"
                    + mqttFormat + "'");
        }
        if (!"sparkplug".equals(mqttFormat) && (sparkplugNode != null || !"salgate".equals(sparkplugGroup)
                || sparkplugWrites)) {
            throw new IllegalArgumentException("--sparkplug-group, --sparkplug-node and --sparkplug-writes need"
                    + " --mqtt-format sparkplug");
        }
    }

    private void configureAnnouncement(AgentBuilder builder) throws UnknownHostException {
        if (!announce) {
            if (announceAddress != null) {
                throw new IllegalArgumentException("--announce-address needs --announce");
            }
            return;
        }
        InetAddress chosen = announceAddress == null ? null : InetAddress.getByName(announceAddress);
        builder.extension(DiscoveryExtension.announcing(chosen));
    }

    /** The first line of {@code file} when given, else the variable {@code env}, else null; {@code what} names it in errors. */
    static String secret(Path file, String env, String what) throws IOException {
        if (file != null) {
            try {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                return lines.isEmpty() ? "" : lines.get(0);
            } catch (IOException e) {
                throw new IOException("cannot read the " + what + " file " + file + ": " + e.getMessage(), e);
            }
        }
        return System.getenv(env);
    }

    /** A duration written as a number and a unit (ms, s, m, h, d), or in ISO-8601 (PT30S). */
    static Duration duration(String text, String option) {
        String s = text.trim();
        try {
            if (s.startsWith("P") || s.startsWith("p")) {
                return Duration.parse(s);
            }
            String[][] units = {{"ms", "1"}, {"s", "1000"}, {"m", "60000"}, {"h", "3600000"}, {"d", "86400000"}};
            for (String[] u : units) {
                if (s.endsWith(u[0])) {
                    long n = Long.parseLong(s.substring(0, s.length() - u[0].length()));
                    return Duration.ofMillis(Math.multiplyExact(n, Long.parseLong(u[1])));
                }
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " '" + text + "' is not a duration: write a number and a unit"
                + " (ms, s, m, h, d), such as 30s or 24h");
    }
}
