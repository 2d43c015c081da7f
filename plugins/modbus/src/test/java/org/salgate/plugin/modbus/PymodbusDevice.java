package org.salgate.plugin.modbus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real Modbus device for the tests: src/test/python/modbus_server.py run by Debian's
 * /usr/bin/python3 with python3-pymodbus, over TCP on a loopback port or as RTU on a serial line.
 * It keeps the lines the device prints: one per request it sees and one per value written.
 */
final class PymodbusDevice implements AutoCloseable {

    static final Path SCRIPT = Path.of("src", "test", "python", "modbus_server.py");

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final StringBuilder errors = new StringBuilder();

    private PymodbusDevice(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", SCRIPT.toString()));
        command.addAll(List.of(arguments));
        process = new ProcessBuilder(command).start();
        CountDownLatch ready = new CountDownLatch(1);
        follow(process.getInputStream(), "pymodbus-out", line -> {
            if (line.equals("ready")) {
                ready.countDown();
            } else {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        });
        follow(process.getErrorStream(), "pymodbus-err", line -> {
            synchronized (errors) {
                errors.append(line).append('\n');
            }
        });
        if (!ready.await(30, TimeUnit.SECONDS)) {
            close();
            synchronized (errors) {
                throw new IllegalStateException("the pymodbus device did not start: " + errors);
            }
        }
    }

    /** Gives each line of {@code stream} to {@code sink}, on a daemon thread, until the stream ends. */
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

    /** A device serving Modbus TCP on 127.0.0.1:{@code port}. */
    static PymodbusDevice tcp(int port) throws Exception {
        return new PymodbusDevice("tcp", Integer.toString(port));
    }

    /** A device serving Modbus RTU on the serial line {@code device}. */
    static PymodbusDevice rtu(String device) throws Exception {
        return new PymodbusDevice("rtu", device);
    }

    /** A loopback port free now. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * The requests the device has seen, "FUNCTION ADDRESS COUNT", once it printed {@code expected}
     * of them (its output comes a little after its answers) and a moment more for any beyond; and
     * forgets them.
     */
    List<String> takeRequests(int expected) throws InterruptedException {
        List<String> requests = await(expected, "request ").stream().filter(l -> l.startsWith("request "))
                .map(l -> l.substring("request ".length())).toList();
        synchronized (lines) {
            lines.clear();
        }
        return requests;
    }

    /** Every line printed, requests and sets, once there are {@code expected} and a moment more. */
    List<String> lines(int expected) throws InterruptedException {
        return await(expected, "");
    }

    private List<String> await(int expected, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            synchronized (lines) {
                if (lines.stream().filter(l -> l.startsWith(prefix)).count() >= expected) {
                    break;
                }
            }
            Thread.sleep(20);
        }
        Thread.sleep(200);
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
