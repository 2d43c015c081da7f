package org.salgate.plugin.snmp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's snmpd on a loopback UDP port, with a generated configuration: the v2c community
 * {@value #COMMUNITY} and the v3 user {@value #USER} (SHA and AES, authPriv), sysName
 * {@value #SYS_NAME}; its persistent files in the test's directory. Stops and starts again on the
 * same port.
 */
final class Snmpd implements AutoCloseable {

    static final String COMMUNITY = "s3cret-community";
    static final String USER = "salgate";
    static final String AUTH = "auth-pass-123";
    static final String PRIV = "priv-pass-456";
    static final String SYS_NAME = "test-device";

    private final Path dir;
    private final int port;
    private Process process;

    Snmpd(Path dir, int port) throws IOException {
        this.dir = dir;
        this.port = port;
        Files.writeString(dir.resolve("snmpd.conf"), String.join("\n",
                "rocommunity " + COMMUNITY + " 127.0.0.1",
                "createUser " + USER + " SHA \"" + AUTH + "\" AES \"" + PRIV + "\"",
                "rouser " + USER + " priv",
                "sysName " + SYS_NAME, ""));
    }

    int port() {
        return port;
    }

    /** Starts snmpd and waits until it answers snmpget. */
    void start() throws Exception {
        ProcessBuilder b = new ProcessBuilder("snmpd", "-f", "-Lo", "-C", "-c", dir.resolve("snmpd.conf").toString(),
                "udp:127.0.0.1:" + port).redirectErrorStream(true).redirectOutput(dir.resolve("snmpd.log").toFile());
        // not the configuration's directory: snmpd saves its state as snmpd.conf there
        Path state = Files.createDirectories(dir.resolve("state"));
        b.environment().put("SNMP_PERSISTENT_DIR", state.toString());
        process = b.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (run("snmpget", "-v2c", "-c", COMMUNITY, "-r", "0", "-t", "0.3", "127.0.0.1:" + port,
                "1.3.6.1.2.1.1.3.0") != 0) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("snmpd did not start: " + Files.readString(dir.resolve("snmpd.log")));
            }
            Thread.sleep(100);
        }
    }

    void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** Runs a command of Debian's snmp package, returning its exit code. */
    static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end");
        }
        return p.exitValue();
    }
}
