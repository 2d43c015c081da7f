package org.salgate.agent.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.salgate.agent.AgentBuilder;
import org.salgate.influx.InfluxBridge;
import org.salgate.influx.InfluxConfig;
import org.salgate.metrics.GatewayMetrics;
import org.salgate.mqtt.LineProtocol;
import org.salgate.mqtt.StreamSpec;
import org.salgate.transport.tls.TlsConfig;
import picocli.CommandLine.Option;

/** The agent's options for the InfluxDB writer; nothing is opened unless {@code --influx-url} is given. */
final class InfluxOptions {

    /** The environment variable read for the InfluxDB 2.x token when no token file is given. */
    static final String TOKEN_ENV = "SALGATE_INFLUX_TOKEN";
    /** The environment variable read for the InfluxDB 1.x password when no password file is given. */
    static final String PASSWORD_ENV = "SALGATE_INFLUX_PASSWORD";

    @Option(names = "--influx-url", paramLabel = "URL",
            description = "Write readings to the InfluxDB server at this URL (http://host:8086 or https://...);"
                    + " off unless given.")
    String url;

    @Option(names = "--influx-db", paramLabel = "NAME", description = "InfluxDB 1.x database to write to.")
    String database;

    @Option(names = "--influx-org", paramLabel = "ORG", description = "InfluxDB 2.x organization (with --influx-bucket).")
    String org;

    @Option(names = "--influx-bucket", paramLabel = "BUCKET", description = "InfluxDB 2.x bucket to write to.")
    String bucket;

    @Option(names = "--influx-token-file", paramLabel = "FILE",
            description = "File holding the InfluxDB 2.x API token (first line); otherwise $" + TOKEN_ENV + " if set.")
    Path tokenFile;

    @Option(names = "--influx-username", paramLabel = "USER", description = "InfluxDB 1.x user name.")
    String username;

    @Option(names = "--influx-password-file", paramLabel = "FILE",
            description = "File holding the InfluxDB 1.x password (first line); otherwise $" + PASSWORD_ENV + " if set.")
    Path passwordFile;

    @Option(names = "--influx-ca", paramLabel = "FILE",
            description = "PEM file of the CA certificate(s) to trust for an https:// server, and no other"
                    + " (default: the JVM's trust store); the server's certificate must name the URL's host.")
    Path ca;

    @Option(names = "--influx-measurement", defaultValue = LineProtocol.DEFAULT_MEASUREMENT, paramLabel = "NAME",
            description = "Measurement of every point (default: ${DEFAULT-VALUE}).")
    String measurement;

    @Option(names = "--influx-precision", defaultValue = "us", paramLabel = "ns|us|ms|s",
            description = "Precision of the points' timestamps (default: ${DEFAULT-VALUE}); readings closer together"
                    + " than it overwrite each other.")
    String precision;

    @Option(names = "--influx-stream", paramLabel = "SENSOR[:COMMAND]@INTERVAL",
            description = "Write a sensor command's readings at an interval, as --mqtt-stream: DUMMY_0@100ms, * or"
                    + " lab.* for patterns, file:PATH for a file of streams (repeatable).")
    List<String> streams = new ArrayList<>();

    @Option(names = "--influx-batch-size", defaultValue = "" + InfluxConfig.DEFAULT_BATCH_SIZE, paramLabel = "N",
            description = "Points written in one request at most (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--influx-linger", defaultValue = "1s", paramLabel = "DURATION",
            description = "How long a batch not yet full waits for more points (default: ${DEFAULT-VALUE}).")
    String linger;

    @Option(names = "--influx-store", paramLabel = "FILE",
            description = "Store of points waiting for InfluxDB (default: influx.mv.db in --state-dir).")
    Path store;

    @Option(names = "--influx-store-max", defaultValue = "" + InfluxConfig.DEFAULT_MAX_STORED, paramLabel = "N",
            description = "Points kept while InfluxDB is unreachable; beyond, the oldest are dropped (default: ${DEFAULT-VALUE}).")
    long storeMax;

    @Option(names = "--influx-store-max-age", defaultValue = "24h", paramLabel = "DURATION",
            description = "Points older than this are dropped unwritten (default: ${DEFAULT-VALUE}).")
    String storeMaxAge;

    @Option(names = "--influx-retry-max", defaultValue = "30s", paramLabel = "DURATION",
            description = "Longest wait before a failed write is tried again; waits double from 500ms (default: ${DEFAULT-VALUE}).")
    String retryMax;

    /**
     * Adds the InfluxDB writer to the agent being built when {@code --influx-url} is given, its figures
     * to {@code metrics} (or none when null), its store into {@code stateDir} unless {@code --influx-store}.
     *
     * @throws IllegalArgumentException when an option is not usable, saying which and why
     * @throws IOException when a file an option names cannot be read, naming it
     */
    void apply(AgentBuilder builder, GatewayMetrics metrics, Path stateDir) throws IOException {
        if (url == null) {
            if (database != null || bucket != null || org != null || tokenFile != null || username != null
                    || passwordFile != null || ca != null || store != null || !streams.isEmpty()) {
                throw new IllegalArgumentException("the --influx-* options need --influx-url to say which server to use");
            }
            return;
        }
        InfluxConfig.Builder b = InfluxConfig.builder(url).measurement(measurement)
                .precision(LineProtocol.Precision.parse(precision)).batchSize(batchSize)
                .linger(GatewayOptions.duration(linger, "--influx-linger"))
                .storeFile(store).storeDirectory(stateDir).maxStored(storeMax)
                .maxAge(GatewayOptions.duration(storeMaxAge, "--influx-store-max-age"))
                .retry(java.time.Duration.ofMillis(500), GatewayOptions.duration(retryMax, "--influx-retry-max"));
        if (database != null) {
            b.database(database);
        }
        if (bucket != null || org != null) {
            if (bucket == null || org == null) {
                throw new IllegalArgumentException("InfluxDB 2.x needs both --influx-org and --influx-bucket");
            }
            b.bucket(org, bucket);
        }
        String token = GatewayOptions.secret(tokenFile, TOKEN_ENV, "InfluxDB token");
        String password = GatewayOptions.secret(passwordFile, PASSWORD_ENV, "InfluxDB password");
        if (token != null && (username != null || passwordFile != null)) {
            throw new IllegalArgumentException("give InfluxDB either a token (2.x) or a user name and password (1.x),"
                    + " not both");
        }
        b.token(token);
        if (username != null) {
            b.credentials(username, password);
        }
        if (ca != null) {
            if (!url.startsWith("https://")) {
                throw new IllegalArgumentException("--influx-ca is for an https:// server; --influx-url is " + url);
            }
            try {
                b.tls(TlsConfig.clientTrustingCa(ca));
            } catch (IOException e) {
                throw new IOException("cannot read the InfluxDB server's CA file " + ca + ": " + e.getMessage(), e);
            }
        }
        for (String s : streams) {
            if (s.startsWith(GatewayOptions.STREAMS_FILE)) {
                b.streamsFile(Path.of(s.substring(GatewayOptions.STREAMS_FILE.length())));
            } else {
                try {
                    b.stream(StreamSpec.parse(s));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--influx-stream " + e.getMessage(), e);
                }
            }
        }
        builder.extension(InfluxBridge.extension(b.build(), writer -> {
            if (metrics != null) {
                metrics.counter("salgate.influx.written", "Points InfluxDB took", writer::written);
                metrics.gauge("salgate.influx.pending", "Points waiting in the InfluxDB store", writer::pending);
                metrics.counter("salgate.influx.dropped", "Points dropped: store full, too old, or refused by InfluxDB",
                        writer::dropped);
                metrics.counter("salgate.influx.sent", "Points the streams' reporting options let through", writer::sent);
                metrics.counter("salgate.influx.suppressed", "Readings the streams' reporting options held back",
                        writer::suppressed);
            }
        }));
    }
}
