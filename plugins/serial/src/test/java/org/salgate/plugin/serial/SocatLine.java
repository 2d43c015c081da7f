package org.salgate.plugin.serial;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A serial line for the tests: a pair of pseudo-terminals joined by Debian's socat, linked under
 * a directory of /dev/shm ({@code device}, the end a driver opens, and {@code instrument}, the end
 * the test writes), so that a restarted socat (the instrument plugged back) has the same names.
 * Optionally an instrument: a daemon thread named {@code tck-instrument} writing one line every few
 * milliseconds whenever the line is up, as a device that speaks by itself.
 */
final class SocatLine implements AutoCloseable {

    private final Path dir;
    private Process socat;
    private volatile boolean closed;
    private Thread instrument;

    SocatLine() throws Exception {
        dir = Files.createTempDirectory(Path.of("/dev/shm"), "salgate-serial-");
        start();
    }

    /** The directory of the links, to allow the agent to open ports under it. */
    Path dir() {
        return dir;
    }

    /** The end a driver opens. */
    Path device() {
        return dir.resolve("device");
    }

    /** The end the instrument writes. */
    Path instrumentEnd() {
        return dir.resolve("instrument");
    }

    /** Starts socat (again) and waits for both links. */
    void start() throws Exception {
        socat = new ProcessBuilder("socat", "pty,raw,echo=0,link=" + device(),
                "pty,raw,echo=0,link=" + instrumentEnd()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        await("socat's pseudo-terminals", () -> Files.exists(device()) && Files.exists(instrumentEnd()));
    }

    /** Stops socat, as a cable pulled: both ends close and their links go. */
    void stop() throws Exception {
        if (socat != null) {
            socat.destroy();
            if (!socat.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("socat did not stop");
            }
            socat = null;
            await("socat's links removed", () -> !Files.exists(device()));
        }
    }

    /** Writes {@code line} and its end every {@code everyMs} on a daemon thread, whenever the line is up. */
    void speak(String line, long everyMs) {
        byte[] bytes = (line + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        instrument = new Thread(() -> {
            while (!closed) {
                // WRITE alone: never a file of its own where the link is missing while unplugged
                try (OutputStream out = Files.newOutputStream(instrumentEnd(), StandardOpenOption.WRITE)) {
                    while (!closed) {
                        out.write(bytes);
                        out.flush();
                        Thread.sleep(everyMs);
                    }
                } catch (IOException e) {
                    // unplugged: try again until plugged back
                    pause(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "tck-instrument");
        instrument.setDaemon(true);
        instrument.start();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to 10 s for {@code condition}. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("waited 10 s for " + what);
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() throws Exception {
        closed = true;
        stop();
        if (instrument != null) {
            instrument.interrupt();
            instrument.join(5000);
        }
        Files.deleteIfExists(dir);
    }
}
