package org.salgate.devices;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Modbus TCP device: plugins/modbus's modbus_server.py (system property
 * {@value #SCRIPT}) run by Debian's /usr/bin/python3 with python3-pymodbus on a loopback port. It
 * serves known registers (listed in the script) and prints a line per request and per value
 * written, to a file this reads. It can be stopped and started again on its port.
 */
final class PymodbusServer implements AutoCloseable {

    static final String SCRIPT = "salgate.modbus.server";

    private final int port;
    private final Path output;
    private final Path errors;
    private Process process;

    private PymodbusServer(int port) throws IOException {
        this.port = port;
        this.output = Files.createTempFile("pymodbus-" + port + "-", ".log");
        this.errors = Files.createTempFile("pymodbus-" + port + "-", ".err");
    }

    /** A device serving on a free loopback port, started. */
    static PymodbusServer start() throws Exception {
        return start(freePort());
    }

    /** A device serving on {@code port}, started. */
    static PymodbusServer start(int port) throws Exception {
        PymodbusServer server = new PymodbusServer(port);
        server.restart();
        return server;
    }

    /** A loopback port free now. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    /** The endpoint of a protocol on this device. */
    String endpoint() {
        return "tcp:127.0.0.1:" + port;
    }

    /** Starts the device (again) and waits until it serves. */
    void restart() throws Exception {
        String script = System.getProperty(SCRIPT);
        if (script == null || !Files.isRegularFile(Path.of(script))) {
            throw new IllegalStateException("the Modbus test device (system property " + SCRIPT + ") is missing: '"
                    + script + "'");
        }
        int readyBefore = readyLines();
        process = new ProcessBuilder("/usr/bin/python3", script, "tcp", Integer.toString(port))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (readyLines() == readyBefore) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                stop();
                throw new IllegalStateException("the pymodbus device on port " + port + " did not start: "
                        + Files.readString(errors, StandardCharsets.UTF_8));
            }
            Thread.sleep(20);
        }
    }

    private int readyLines() throws IOException {
        return (int) Files.readAllLines(output, StandardCharsets.UTF_8).stream().filter("ready"::equals).count();
    }

    /** Kills the device, as a power cut would: its connections drop. */
    void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Every line the device printed, "request FUNCTION ADDRESS COUNT" or "set FUNCTION ADDRESS VALUES". */
    List<String> lines() {
        try {
            return Files.readAllLines(output, StandardCharsets.UTF_8).stream().filter(l -> !l.equals("ready")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits up to 10 s for the device to print {@code line}, and says whether it did. */
    boolean printed(String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (lines().contains(line)) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException, IOException {
        stop();
        Files.deleteIfExists(output);
        Files.deleteIfExists(errors);
    }
}
