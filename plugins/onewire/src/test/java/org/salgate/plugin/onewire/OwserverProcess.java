package org.salgate.plugin.onewire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's owserver with fake buses on a loopback port (owserver --fake=10,28), in the
 * foreground so that the test can stop it, and its command-line witnesses owdir and owread.
 */
final class OwserverProcess implements AutoCloseable {

    private final int port;
    private final String families;
    private Process process;

    OwserverProcess(String families) throws Exception {
        this.families = families;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        start();
    }

    int port() {
        return port;
    }

    String endpoint() {
        return "tcp:127.0.0.1:" + port;
    }

    /** Starts owserver (again, on the same port) and waits until it accepts connections. */
    void start() throws Exception {
        process = new ProcessBuilder("owserver", "--fake=" + families, "-p", "127.0.0.1:" + port, "--foreground")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("owserver did not start on port " + port, e);
                }
                Thread.sleep(50);
            }
        }
    }

    /** Stops owserver at once: its port and connections close. */
    void stop() throws InterruptedException {
        if (process != null) {
            // killed, as a gateway that loses power: owserver takes seconds to end on SIGTERM
            process.destroyForcibly().waitFor();
            process = null;
        }
    }

    /** owdir's listing of the root: the devices' paths (/28.4AEC29CDBAAB), owserver's directories left out. */
    List<String> devices() throws Exception {
        return run("owdir", "-s", "127.0.0.1:" + port, "/").lines().map(String::strip)
                .filter(p -> p.matches("/[0-9A-F]{2}\\.[0-9A-F]{12}")).toList();
    }

    /** owread's text of a path. */
    String read(String path) throws Exception {
        return run("owread", "-s", "127.0.0.1:" + port, path);
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
