package org.salgate.transport.tck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent jar (system property {@code salgate.agent.jar}) run as a child JVM, as a user runs it, so its
 * resident memory, threads and descriptors can be read from {@code /proc} (Linux), and so it can
 * run under a descriptor limit of its own ({@code ulimit -n}). Its output goes to a file.
 */
public final class AgentProcess implements AutoCloseable {

    /** The system property naming the agent jar. */
    public static final String AGENT_JAR = "salgate.agent.jar";
    /** The system property that chooses the I/O mechanism of the Netty-based transports. */
    public static final String NETTY_IO = "salgate.netty.io";
    private static final Pattern LISTENING = Pattern.compile("listening on \\S*:(\\d+) \\(");
    private static final long START_TIMEOUT_MILLIS = 60_000;

    private final Process process;
    private final Path output;
    private final int port;

    private AgentProcess(Process process, Path output, int port) {
        this.process = process;
        this.output = output;
        this.port = port;
    }

    /**
     * Starts an agent with {@code transport} on a free loopback port and waits for its listen line.
     *
     * @param maxDescriptors the {@code ulimit -n} of the agent, 0 for the inherited limit
     */
    public static AgentProcess start(String transport, int maxDescriptors) throws IOException, InterruptedException {
        return start(transport, maxDescriptors, List.of());
    }

    /**
     * As {@link #start(String, int)}, with {@code jvmOptions} (such as {@code -Dname=value}) before
     * the jar. The Netty I/O mechanism of this JVM ({@value #NETTY_IO}), if set, is passed on, so a
     * whole suite can run on the one asked for.
     */
    public static AgentProcess start(String transport, int maxDescriptors, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return start(transport, maxDescriptors, jvmOptions, List.of());
    }

    /**
     * As {@link #start(String, int, List)}, with {@code agentArgs} (such as {@code --tokens FILE})
     * after the transport, host and port the agent is always given.
     */
    public static AgentProcess start(String transport, int maxDescriptors, List<String> jvmOptions, List<String> agentArgs)
            throws IOException, InterruptedException {
        Path output = Files.createTempFile("salgate-agent-" + transport + "-", ".log");
        String jar = System.getProperty(AGENT_JAR);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the agent jar (system property " + AGENT_JAR + ") is missing: '" + jar
                    + "'; build the agent module first (mvn -pl transports/tck -am verify does)");
        }
        List<String> java = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:+UseSerialGC"));
        String nettyIo = System.getProperty(NETTY_IO);
        if (nettyIo != null) {
            java.add("-D" + NETTY_IO + "=" + nettyIo);
        }
        java.addAll(jvmOptions);
        java.addAll(List.of("-jar", jar, "--transport", transport, "--host", "127.0.0.1", "--port", "0"));
        java.addAll(agentArgs);
        List<String> command = new ArrayList<>();
        if (maxDescriptors > 0) {
            command.addAll(List.of("bash", "-c", "ulimit -n " + maxDescriptors + " && exec \"$@\"", "agent"));
        }
        command.addAll(java);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            Matcher m = LISTENING.matcher(Files.readString(output, StandardCharsets.UTF_8));
            if (m.find()) {
                return new AgentProcess(process, output, Integer.parseInt(m.group(1)));
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("the " + transport + " agent did not start: "
                + Files.readString(output, StandardCharsets.UTF_8));
    }

    public int port() {
        return port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Resident memory in bytes ({@code VmRSS}). */
    public long residentBytes() throws IOException {
        return status("VmRSS:") * 1024;
    }

    /** Live threads. */
    public long threads() throws IOException {
        return status("Threads:");
    }

    /** Open file descriptors. */
    public long descriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
            return fds.count();
        }
    }

    /** The process id, for tools that read the agent from outside. */
    public long pid() {
        return process.pid();
    }

    /** Everything the agent printed so far. */
    public List<String> outputLines() throws IOException {
        return Files.readAllLines(output, StandardCharsets.UTF_8);
    }

    private long status(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        throw new IOException("no " + field + " in /proc/" + process.pid() + "/status");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        Files.deleteIfExists(output);
    }

    @Override
    public String toString() {
        return "agent pid " + process.pid() + " on port " + port;
    }
}
