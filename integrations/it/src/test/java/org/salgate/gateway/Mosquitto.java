package org.salgate.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Mosquitto broker run from the test: a {@code mosquitto} process on a free loopback port,
 * with a generated configuration (anonymous clients allowed on that listener only, persistence in
 * the test's directory so that sessions and retained messages survive a restart); or, with
 * {@link #startTls}, a TLS listener that lets in only the users of a password file.
 */
final class Mosquitto implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final String scheme;
    private Process process;

    private Mosquitto(Path dir, int port, String scheme) {
        this.dir = dir;
        this.port = port;
        this.scheme = scheme;
    }

    /** Starts a broker on a free loopback port, its files in {@code dir}. */
    static Mosquitto start(Path dir) throws IOException, InterruptedException {
        return start(dir, "tcp", List.of("allow_anonymous true"));
    }

    /**
     * Starts a broker whose only listener speaks TLS, with the certificate and key of PEM files,
     * and lets in only the users of a {@code mosquitto_passwd} file.
     */
    static Mosquitto startTls(Path dir, Path certificate, Path key, Path passwords)
            throws IOException, InterruptedException {
        return start(dir, "ssl", List.of(
                "certfile " + certificate.toAbsolutePath(),
                "keyfile " + key.toAbsolutePath(),
                "allow_anonymous false",
                "password_file " + passwords.toAbsolutePath()));
    }

    private static Mosquitto start(Path dir, String scheme, List<String> listenerSettings)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Mosquitto m = new Mosquitto(dir, port, scheme);
        List<String> lines = new ArrayList<>();
        lines.add("listener " + port + " 127.0.0.1");
        lines.addAll(listenerSettings);
        Files.writeString(dir.resolve("mosquitto.conf"), String.join("\n", lines) + "\n" + String.join("\n",
                // Run as root, mosquitto would switch to its own user, which cannot write the test's directory.
                "user " + System.getProperty("user.name"),
                "persistence true",
                "persistence_location " + dir.toAbsolutePath() + "/",
                "max_queued_messages 100000",
                "log_dest file " + dir.resolve("mosquitto.log").toAbsolutePath(),
                "log_type error", "log_type warning", "log_type notice", "log_type information", ""));
        m.launch();
        return m;
    }

    int port() {
        return port;
    }

    String url() {
        return scheme + "://127.0.0.1:" + port;
    }

    /** What the broker logged so far. */
    String log() throws IOException {
        Path log = dir.resolve("mosquitto.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private void launch() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("mosquitto", "-c", dir.resolve("mosquitto.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("mosquitto.out").toFile());
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot run mosquitto: these tests need the Mosquitto broker on the PATH"
                    + " (Debian: apt-get install mosquitto)", e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mosquitto exited with " + process.exitValue() + ": "
                        + Files.readString(dir.resolve("mosquitto.out")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IOException("mosquitto did not listen on port " + port + " within 10 s");
    }

    /** Stops the broker as its service would (SIGTERM: it saves its sessions and retained messages). */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Starts it again on the same port. */
    void restart() throws IOException, InterruptedException {
        launch();
    }

    /** Stops it, waits {@code outage}, starts it again. */
    void outage(Duration outage) throws IOException, InterruptedException {
        stop();
        Thread.sleep(outage.toMillis());
        restart();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
