package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.Agent;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.Certificates;
import picocli.CommandLine;

@Timeout(30)
class AgentMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = AgentMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsEveryOption() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--transport", "--host", "--port", "--codec", "--config", "--dummy-sensors",
                "--dummy-payload-bytes", "--max-frame-bytes", "--agent-id", "--list-transports", "--version",
                "--tokens", "--insecure", "--plugin-dir", "--relay-allow", "--device-allow", "--max-sessions", "--hello-timeout-ms",
                "--idle-timeout-ms", "--max-buffered-bytes"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
    }

    @Test
    void aSessionLimitOutOfRangeIsAUsageErrorNamingIt() {
        assertEquals(2, run("--max-sessions", "0"));
        assertTrue(err.toString().contains("the maximum of sessions (--max-sessions) must be positive, got 0"),
                err.toString());
        assertEquals(2, run("--hello-timeout-ms", "0"));
        assertTrue(err.toString().contains("the hello timeout (--hello-timeout-ms) must be positive, got 0 ms"),
                err.toString());
    }

    @Test
    void listTransportsPrintsTheTransportsFound() {
        assertEquals(0, run("--list-transports"));
        for (String name : Transports.available().keySet()) {
            assertTrue(out.toString().contains(name), out.toString());
        }
    }

    @Test
    void listTransportsNamesTheIoMechanismOfTheNettyBasedTransports() {
        assertEquals(0, run("--list-transports"));
        for (String line : out.toString().split("\\R")) {
            if (line.startsWith("netty\t") || line.startsWith("http\t")) {
                assertTrue(line.endsWith(" on Java NIO"), line);
            }
        }
        assertTrue(out.toString().contains("netty\t") && out.toString().contains("http\t"), out.toString());
    }

    @Test
    void unknownTransportFailsWithTheAvailableOnes() {
        assertEquals(2, run("--transport", "carrier-pigeon"));
        assertTrue(err.toString().contains("unknown transport 'carrier-pigeon'") && err.toString().contains("available"),
                err.toString());
    }

    @Test
    void unknownCodecFailsWithTheAvailableOnes() {
        String transport = Transports.available().keySet().stream().findFirst().orElse("netty");
        int code = run("--transport", transport, "--codec", "morse");
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("unknown") && err.toString().contains("protobuf"), err.toString());
    }

    @Test
    void invalidConfigurationFailsWithExitCode2(@TempDir Path dir) throws Exception {
        String transport = Transports.available().keySet().stream().findFirst().orElse("netty");
        Path bad = Files.writeString(dir.resolve("bad.xml"), "<platform");
        assertEquals(2, run("--transport", transport, "--config", bad.toString()));
        assertTrue(err.toString().contains("bad.xml"), err.toString());
        assertEquals(2, run("--transport", transport, "--config", dir.resolve("missing.xml").toString()));
    }

    private String firstTransport() {
        return Transports.available().keySet().stream().findFirst().orElse("netty");
    }

    @Test
    void eachBrokenRuleHasItsOwnMessage() {
        assertEquals(2, run("--port", "70000"));
        assertEquals("--port must be 0..65535 (0 picks a free port), got 70000\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--dummy-sensors", "-1"));
        assertEquals("--dummy-sensors must be 0 or more, got -1\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--max-frame-bytes", "0"));
        assertEquals("--max-frame-bytes must be 1 or more, got 0\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "-1", "--max-frame-bytes", "0"));
        assertEquals(2, err.toString().lines().count(), err.toString());
    }

    @Test
    void aMissingConfigurationSaysWhy(@TempDir Path dir) {
        Path missing = dir.resolve("missing.pcml");
        assertEquals(2, run("--transport", firstTransport(), "--config", missing.toString()));
        assertEquals("cannot read the configuration " + missing + ": no such file\n", err.toString());
    }

    @Test
    void aMalformedConfigurationIsSaidOnce(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.pcml"), "<platform");
        assertEquals(2, run("--transport", firstTransport(), "--config", bad.toString()));
        String e = err.toString();
        assertTrue(e.startsWith("the configuration " + bad + " is not well-formed XML"), e);
        assertFalse(e.contains("PCML document"), e);
    }

    @Test
    void anAddressTheMachineDoesNotHaveIsCalledSo() {
        // 192.0.2.0/24 is reserved for documentation (RFC 5737): no machine has it
        assertEquals(2, run("--transport", firstTransport(), "--host", "192.0.2.7", "--port", "0"));
        String e = err.toString();
        assertTrue(e.startsWith("--host 192.0.2.7 is not an address of this machine"), e);
        assertFalse(e.contains("another port"), e);
    }

    @Test
    void aPortInUseSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (String transport : Transports.available().keySet()) {
                err.getBuffer().setLength(0);
                assertEquals(1, run("--transport", transport, "--host", "127.0.0.1", "--port",
                        Integer.toString(taken.getLocalPort())), transport);
                assertTrue(err.toString().startsWith("the agent cannot listen on 127.0.0.1:" + taken.getLocalPort()
                        + ": the port is in use"), transport + ": " + err);
            }
        }
    }

    @Test
    void theListenAddressIsWrittenOneWayOnEveryTransport() throws Exception {
        for (String transport : Transports.available().keySet()) {
            for (String host : new String[] {"0.0.0.0", "127.0.0.1"}) {
                try (Agent agent = Agent.builder().transport(transport).host(host).port(0)
                        .platform(new PlatformConfig(List.of())).start()) {
                    assertEquals(host + ":" + agent.port(), agent.listenAddress(), transport);
                }
            }
        }
    }

    @Test
    void aNonLoopbackHostWithoutTlsAndTokensIsRefusedUnlessInsecure() {
        assertEquals(2, run("--host", "0.0.0.0", "--port", "0"));
        assertTrue(err.toString().contains("refusing to listen on 0.0.0.0 without TLS and tokens")
                && err.toString().contains("add --insecure"), err.toString());
    }

    @Test
    void aBadTokensFileIsAUsageErrorNamingTheLine(@TempDir Path dir) throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "# tokens\n0123456789abcdef0123 admin\nshort reader\n");
        assertEquals(2, run("--port", "0", "--tokens", tokens.toString()));
        assertTrue(err.toString().contains(tokens + " line 3: the token is 5 characters long"), err.toString());
        assertEquals(2, run("--port", "0", "--tokens", dir.resolve("none").toString()));
        assertTrue(err.toString().contains("cannot read the tokens file " + dir.resolve("none")
                + ": there is no such file"), err.toString());
    }

    @Test
    void badPluginDirectoriesRelayTargetsAndDevicesAreUsageErrors(@TempDir Path dir) {
        assertEquals(2, run("--port", "0", "--plugin-dir", dir.resolve("none").toString()));
        assertTrue(err.toString().contains("plugin directory " + dir.resolve("none") + " is not an existing directory"),
                err.toString());
        assertEquals(2, run("--port", "0", "--relay-allow", "10.0.0.5"));
        assertTrue(err.toString().contains("relay target '10.0.0.5' is not HOST:PORT"), err.toString());
        assertEquals(2, run("--port", "0", "--device-allow", "10.0.0.5:502,/tmp/plc"));
        assertTrue(err.toString().contains("device '/tmp/plc' is not a port of this machine under /dev/"),
                err.toString());
    }

    /** The real program in its own process, with no option but a free port. */
    @Test
    void withNoOptionsTheAgentListensOnLoopbackOnly() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process agent = new ProcessBuilder(java.toString(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", System.getProperty("java.class.path"),
                AgentMain.class.getName(), "--port", "0").redirectErrorStream(true).start();
        try {
            Matcher listening = awaitLine(agent, Pattern.compile("listening on ([0-9.]+):(\\d+) \\(([^)]*)\\)"));
            assertEquals("127.0.0.1", listening.group(1));
            assertEquals("netty, codec protobuf, no TLS", listening.group(3));
            int port = Integer.parseInt(listening.group(2));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(s.isConnected());
            }
            InetAddress external = nonLoopbackAddress();
            assertThrows(ConnectException.class, () -> new Socket(external, port).close(),
                    "the agent accepted a connection on " + external);
        } finally {
            agent.destroy();
            assertTrue(agent.waitFor(20, TimeUnit.SECONDS), "the agent did not stop on SIGTERM");
        }
    }

    /** The real program with a certificate of its own: its log says that clients connect over TLS. */
    @Test
    void withACertificateTheAgentSaysItListensOverTls() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process agent = new ProcessBuilder(java.toString(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", System.getProperty("java.class.path"),
                AgentMain.class.getName(), "--port", "0", "--tls-self-signed").redirectErrorStream(true).start();
        try {
            Matcher listening = awaitLine(agent, Pattern.compile("listening on ([0-9.]+):(\\d+) \\(([^)]*)\\)"));
            assertEquals("netty, codec protobuf, TLS", listening.group(3));
        } finally {
            agent.destroy();
            assertTrue(agent.waitFor(20, TimeUnit.SECONDS), "the agent did not stop on SIGTERM");
        }
    }

    /** The first line of the process's output that {@code pattern} finds, within 20 s. */
    private static Matcher awaitLine(Process process, Pattern pattern) throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)).lines().forEach(lines::add), "agent-output");
        reader.setDaemon(true);
        reader.start();
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line == null) {
                continue;
            }
            seen.append(line).append('\n');
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
        throw new AssertionError("the agent did not log where it listens within 20 s:\n" + seen);
    }

    private static InetAddress nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp() && !nic.isLoopback()) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        return a;
                    }
                }
            }
        }
        throw new AssertionError("this machine has no non-loopback IPv4 address to check against");
    }

    @Test
    void versionIsPrinted() {
        assertEquals(0, run("--version"));
        assertTrue(out.toString().startsWith("salgate agent "), out.toString());
    }

    @Test
    void tlsOptionsAreListedAndSayWhetherTlsIsConfigured() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--tls-cert", "--tls-key", "--tls-self-signed"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
        AgentMain plain = new AgentMain();
        new CommandLine(plain).parseArgs();
        assertEquals(false, plain.tls.isConfigured());
        AgentMain selfSigned = new AgentMain();
        new CommandLine(selfSigned).parseArgs("--tls-self-signed");
        assertTrue(selfSigned.tls.isConfigured());
    }

    @Test
    void certificateWithoutItsKeyFailsWithExitCode2(@TempDir Path dir) throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        assertEquals(2, run("--port", "0", "--tls-cert", cert.toString()));
        assertTrue(err.toString().contains("--tls-cert and --tls-key go together"), err.toString());
    }

    @Test
    void anExpiredCertificateIsServedWithAWarningThatClientsRefuseIt(@TempDir Path dir) throws Exception {
        Instant now = Instant.now();
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"),
                now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)));
        X509Certificate expired = identity.certificate();
        Path cert = Files.writeString(dir.resolve("cert.pem"), Certificates.toPem(expired));
        Path key = Files.writeString(dir.resolve("key.pem"), Certificates.toPem(identity.key()));
        AgentMain main = new AgentMain();
        new CommandLine(main).parseArgs("--tls-cert", cert.toString(), "--tls-key", key.toString());
        StringWriter console = new StringWriter();
        main.tls.config("127.0.0.1", new PrintWriter(console), dir);
        assertTrue(console.toString().contains("warning: the certificate of --tls-cert expired at "
                + expired.getNotAfter().toInstant() + ", and clients refuse it"), console.toString());
    }

    @Test
    void aCertificateWithinItsDatesGetsNoWarningAndOneNotYetValidNamesTheClock() {
        Instant now = Instant.now();
        X509Certificate certificate = Certificates.selfSigned(List.of("127.0.0.1"), now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(1))).certificate();
        assertEquals(null, TlsOptions.outOfDate(certificate, now));
        String early = TlsOptions.outOfDate(certificate, now.minus(Duration.ofDays(2)));
        assertTrue(early != null && early.contains("is valid only from") && early.contains("clock"), early);
    }

    @Test
    void unreadableKeyFileFailsWithExitCode2NamingIt(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.pem");
        assertEquals(2, run("--port", "0", "--tls-cert", missing.toString(), "--tls-key", missing.toString()));
        assertTrue(err.toString().contains("cannot set up TLS") && err.toString().contains("missing.pem"),
                err.toString());
    }

    @Test
    void theSelfSignedCertificateIsKeptInTheStateDirectoryAndServedAgain(@TempDir Path dir) throws Exception {
        AgentMain main = new AgentMain();
        new CommandLine(main).parseArgs("--tls-self-signed");
        StringWriter first = new StringWriter();
        main.tls.config("127.0.0.1", new PrintWriter(first), dir);
        StringWriter second = new StringWriter();
        main.tls.config("127.0.0.1", new PrintWriter(second), dir);
        String pin = first.toString().replaceAll("(?s).*--tls-pin (\\S+).*", "$1");
        assertTrue(second.toString().contains("--tls-pin " + pin), first + "\n" + second);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(TlsOptions.SELF_SIGNED_KEY))));
        StringWriter otherHost = new StringWriter();
        main.tls.config("127.0.0.2", new PrintWriter(otherHost), dir);
        assertFalse(otherHost.toString().contains("--tls-pin " + pin), "a certificate for other names is made anew");
    }
}
