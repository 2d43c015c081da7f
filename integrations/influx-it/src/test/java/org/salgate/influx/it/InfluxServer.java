package org.salgate.influx.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real InfluxDB 1.x run from the test: {@code influxd} (Debian's influxdb) with a generated
 * configuration, its HTTP API and its RPC service on free loopback ports, its data in the test's
 * directory, usage reporting and its self-monitoring off. Stopped and started again on the same
 * ports and data. Queried with InfluxDB's HTTP query API.
 */
final class InfluxServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;

    private InfluxServer(Path dir, int httpPort) {
        this.dir = dir;
        this.httpPort = httpPort;
    }

    /** Starts influxd with its files in {@code dir}. */
    static InfluxServer start(Path dir) throws IOException, InterruptedException {
        int httpPort = freePort();
        int rpcPort = freePort();
        Files.writeString(dir.resolve("influxdb.conf"), String.join("\n",
                "reporting-disabled = true",
                "bind-address = \"127.0.0.1:" + rpcPort + "\"",
                "[meta]",
                "  dir = \"" + dir.resolve("meta") + "\"",
                "[data]",
                "  dir = \"" + dir.resolve("data") + "\"",
                "  wal-dir = \"" + dir.resolve("wal") + "\"",
                "  query-log-enabled = false",
                "[monitor]",
                "  store-enabled = false",
                "[http]",
                "  bind-address = \"127.0.0.1:" + httpPort + "\"",
                "  log-enabled = false",
                ""));
        InfluxServer s = new InfluxServer(dir, httpPort);
        s.launch();
        return s;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts influxd (again) and waits until it answers {@code /ping}. */
    void launch() throws IOException, InterruptedException {
        process = new ProcessBuilder("influxd", "run", "-config", dir.resolve("influxdb.conf").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("influxd.log")
                        .toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("influxd exited with " + process.exitValue() + ": " + log());
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(url("/ping")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 204) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("influxd did not answer /ping within 30 s: " + log());
    }

    /** Stops influxd (SIGTERM) and waits for it to exit. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    private URI url(String path) {
        return URI.create(url() + path);
    }

    /** Runs InfluxQL with {@code epoch=u} (times in microseconds); fails on an error in the answer. */
    JsonNode query(String db, String influxql) throws IOException, InterruptedException {
        String form = "q=" + URLEncoder.encode(influxql, StandardCharsets.UTF_8) + "&epoch=u"
                + (db == null ? "" : "&db=" + URLEncoder.encode(db, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(url("/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode answer = JSON.readTree(r.body());
        if (r.statusCode() != 200 || answer.has("error") || answer.path("results").path(0).has("error")) {
            throw new IOException("InfluxDB refused '" + influxql + "': " + r.statusCode() + " " + r.body());
        }
        return answer.path("results").path(0);
    }

    String log() throws IOException {
        Path log = dir.resolve("influxd.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
