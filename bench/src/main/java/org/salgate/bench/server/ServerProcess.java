package org.salgate.bench.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
    private final BlockingQueue<String> answers;

    /** An agent server's stream counters at one moment: frames it encoded and readings it delivered so far. */
    public record StreamCounts(long framesEncoded, long delivered) {}

    private ServerProcess(Process process, int port, String description, BlockingQueue<String> answers) {
        this.answers = answers;
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
        BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        Thread waiter = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (port[0] < 0 && line.startsWith(BenchProtocol.LISTENING + " ")) {
                        synchronized (port) {
                            port[0] = Integer.parseInt(line.substring(BenchProtocol.LISTENING.length() + 1).trim());
                            port.notifyAll();
                        }
                    } else if (line.startsWith(BenchProtocol.STREAM_COUNTS + " ")) {
                        answers.add(line);
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
        return new ServerProcess(p, port[0], description, answers);
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

    /**
     * Asks an agent server for its stream counters (through its stdin) and waits up to 10 s for them.
     *
     * @throws IOException if it does not answer, or is not an agent
     */
    public StreamCounts streamCounts() throws IOException {
        try {
            OutputStream in = process.getOutputStream();
            in.write((BenchProtocol.STREAM_COUNTS_ORDER + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            String line = answers.poll(10, TimeUnit.SECONDS);
            if (line == null) {
                throw new IOException("the server '" + description + "' did not give its stream counts within 10 s");
            }
            String[] f = line.split(" ");
            if (f.length != 3) {
                throw new IOException("the server '" + description + "' has no stream counts: " + line);
            }
            return new StreamCounts(Long.parseLong(f[1]), Long.parseLong(f[2]));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking for the stream counts");
        }
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
