package org.salgate.devices;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real Modbus TCP device: plugins/modbus's modbus_server.py (system property
 * {@value #SCRIPT}) run by Debian's /usr/bin/python3 with python3-pymodbus on a loopback port. It
 * serves known registers (listed in the script) and prints a line per request and per value
 * written, which this keeps. It can be stopped and started again on its port.
 */
final class PymodbusServer implements AutoCloseable {

    static final String SCRIPT = "salgate.modbus.server";

    private final int port;
    private final List<String> lines = new ArrayList<>();
    private final StringBuilder errors = new StringBuilder();
    private Process process;

    private PymodbusServer(int port) {
        this.port = port;
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
        process = new ProcessBuilder("/usr/bin/python3", script, "tcp", Integer.toString(port)).start();
        CountDownLatch ready = new CountDownLatch(1);
        follow(process.getInputStream(), "pymodbus-" + port, line -> {
            if (line.equals("ready")) {
                ready.countDown();
            } else {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        });
        follow(process.getErrorStream(), "pymodbus-err-" + port, line -> {
            synchronized (errors) {
                errors.append(line).append('\n');
            }
        });
        if (!ready.await(30, TimeUnit.SECONDS)) {
            stop();
            synchronized (errors) {
                throw new IllegalStateException("the pymodbus device on port " + port + " did not start: " + errors);
            }
        }
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
        synchronized (lines) {
            return List.copyOf(lines);
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

    private static void follow(InputStream stream, String name, Consumer<String> sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                // the device was stopped
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
