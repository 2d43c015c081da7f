package org.salgate.bench.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server under test running in a child JVM: the same {@code java} and class path as the bench,
 * with fixed flags, so that every transport gets the same heap and its CPU and memory can be
 * sampled alone. Its stderr goes to a log file.
 */
public final class ServerProcess implements AutoCloseable {

    /** Every server gets the same heap, so resident memory reflects the transport, not the heap policy. */
    public static final List<String> JVM_FLAGS = List.of("-Xms512m", "-Xmx512m",
            "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true");
    private static final long START_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final int port;
    private final String description;

    private final Thread killOnExit;

    private ServerProcess(Process process, int port, String description) {
        this.process = process;
        this.port = port;
        this.description = description;
        // a bench stopped with Ctrl-C must not leave its server behind
        this.killOnExit = new Thread(process::destroyForcibly, "kill-server-" + process.pid());
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts a server and waits until it listens.
     *
     * @param serverArgs the arguments of {@link BenchServerMain}, such as {@code transport netty}
     * @param log where the child's stderr goes
     * @throws IOException if it cannot be started or does not listen within a minute
     */
    public static ServerProcess start(List<String> serverArgs, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaCommand());
        cmd.addAll(JVM_FLAGS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(BenchServerMain.class.getName());
        cmd.addAll(serverArgs);
        String description = String.join(" ", serverArgs);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        int[] port = {-1};
        Thread waiter = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (port[0] < 0 && line.startsWith(BenchProtocol.LISTENING + " ")) {
                        synchronized (port) {
                            port[0] = Integer.parseInt(line.substring(BenchProtocol.LISTENING.length() + 1).trim());
                            port.notifyAll();
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // the child went away; start() notices by its exit
            }
        }, "server-stdout-" + description);
        waiter.setDaemon(true);
        waiter.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        synchronized (port) {
            while (port[0] < 0 && p.isAlive() && System.nanoTime() < deadline) {
                try {
                    port.wait(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    p.destroyForcibly();
                    throw new IOException("interrupted while starting the server '" + description + "'");
                }
            }
        }
        if (port[0] < 0) {
            p.destroyForcibly();
            throw new IOException("the server '" + description + "' did not start listening; see " + log);
        }
        return new ServerProcess(p, port[0], description);
    }

    /** The {@code java} of this JVM, for the child JVMs the bench starts. */
    public static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the server to stop (closes its stdin), then kills it if it has not exited within 10 s. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // already shutting down: the hook does the job
        }
        try (OutputStream in = process.getOutputStream()) {
            in.write("stop\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return description + " (pid " + pid() + ", port " + port + ")";
    }
}
