package org.salgate.bench.scale;

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

import com.fasterxml.jackson.databind.ObjectMapper;
import org.salgate.bench.server.ServerProcess;

/**
 * One client process of {@code bench scale} ({@link ScaleClientMain} in a child JVM with
 * {@link #JVM_FLAGS}), seen from the bench: orders go to its stdin, its {@link ProcessReport}
 * lines come back from its stdout, its stderr goes to a log file.
 */
final class ClientProcess implements AutoCloseable {

    /**
     * The client processes' flags: a bounded heap, the serial collector (one GC thread, not one per
     * core) and small thread stacks, since a process holds hundreds of connections, each with a thread
     * of its transport's client.
     */
    static final List<String> JVM_FLAGS = List.of("-Xmx512m", "-Xss512k", "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EOF = "\u0000eof";

    private final int index;
    private final Process process;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Thread killOnExit;
    private String lastBadLine;

    /** Watches a process already started (the bench's own start, or a test's stand-in). */
    ClientProcess(int index, Process process) {
        this.index = index;
        this.process = process;
        // a bench stopped with Ctrl-C must not leave its clients behind
        this.killOnExit = new Thread(process::destroyForcibly, "kill-scale-client-" + process.pid());
        Runtime.getRuntime().addShutdownHook(killOnExit);
        Thread reader = new Thread(this::readStdout, "scale-client-stdout-" + index);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts client process number {@code index} with the arguments of {@link ScaleClientMain}.
     *
     * @throws IOException if the JVM cannot be started
     */
    static ClientProcess start(int index, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ServerProcess.javaCommand());
        cmd.addAll(JVM_FLAGS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ScaleClientMain.class.getName());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ClientProcess(index, p);
    }

    private void readStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(new Line(line, System.nanoTime()));
            }
        } catch (IOException e) {
            // the process went away: the EOF below says so
        }
        lines.add(new Line(EOF, System.nanoTime()));
    }

    int index() {
        return index;
    }

    long pid() {
        return process.pid();
    }

    /** Sends one order line ({@code start}, {@code stop}). */
    void send(String order) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((order + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** A line of the process's stdout, and when the bench read it. */
    private record Line(String text, long arrivedNanos) {}

    /**
     * Waits for the process's report of {@code phase}.
     *
     * @param deadlineNanos a {@link System#nanoTime()} by which it must have come
     * @throws IOException if the process exits, says something else, or is silent past the deadline
     */
    ProcessReport await(String phase, long deadlineNanos) throws IOException, InterruptedException {
        return await(phase, deadlineNanos, 0);
    }

    /**
     * Waits for the process's report of {@code phase}, by {@code deadlineNanos} or, while it says it
     * is getting on ({@value ProcessReport#PROGRESS_PREFIX} lines), by {@code stallNanos} after the
     * last such line, whichever is later.
     *
     * @throws IOException if the process exits, says something else, or is silent past the deadline
     */
    ProcessReport await(String phase, long deadlineNanos, long stallNanos) throws IOException, InterruptedException {
        long deadline = deadlineNanos;
        while (true) {
            Line next = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new IOException("client process " + index + " did not report '" + phase + "' in time"
                        + (deadline > deadlineNanos ? " (it had said it was getting on "
                        + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - (deadline - stallNanos))
                        + " s before)" : ""));
            }
            String line = next.text();
            if (line.startsWith(ProcessReport.PROGRESS_PREFIX)) {
                deadline = Math.max(deadline, next.arrivedNanos() + stallNanos);
                continue;
            }
            if (line.equals(EOF)) {
                lines.add(next);
                String exit = process.waitFor(5, TimeUnit.SECONDS) ? "exit code " + process.exitValue() : "no exit";
                throw new IOException("client process " + index + " ended before it reported '" + phase + "' ("
                        + exit + (lastBadLine == null ? "" : "; it said: " + lastBadLine) + ")");
            }
            if (!line.startsWith(ProcessReport.LINE_PREFIX)) {
                lastBadLine = line;
                continue;
            }
            ProcessReport r = JSON.readValue(line.substring(ProcessReport.LINE_PREFIX.length()), ProcessReport.class);
            if (!r.phase().equals(phase)) {
                throw new IOException("client process " + index + " reported '" + r.phase() + "' where '" + phase
                        + "' was expected");
            }
            return r;
        }
    }

    /** Closes its stdin: it closes its clients and exits. */
    void closeInput() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
    }

    /** Closes its stdin (it closes its clients and exits), then kills it if it is still there after 10 s. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // already shutting down: the hook does the job
        }
        closeInput();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
