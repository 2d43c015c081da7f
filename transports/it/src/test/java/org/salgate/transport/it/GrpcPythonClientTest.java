package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.transport.tls.Certificates;

/**
 * The README's Python client (docs/grpc/salgate_client.py, grpcio + grpcio-tools) against the agent
 * jar started as a user starts it, with {@code --transport grpc}: plain on loopback, and with TLS
 * (a self-signed certificate naming 127.0.0.1) and tokens, where it must trust the agent through
 * {@code --tls-ca} or {@code --tls-pin}, send its token, and say clearly why it cannot connect
 * otherwise. It must list the default agent's 28 sensors and print five readings of DUMMY_0 in
 * sequence. The script compiles the schema the repository's sources hold, or, given {@code --protos},
 * the one the agent jar carries. Runs only in the Maven profile {@code python}, which {@code .ci/run}
 * enables after installing the two Python packages; the profile passes the paths of the agent jar,
 * the script and the Python interpreter.
 */
class GrpcPythonClientTest {

    private static final int READINGS = 5;

    @TempDir
    static Path dir;
    private static AgentProcess tlsAgent;
    private static Path agentCert;
    private static String agentPin;

    private static Path required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set; run this test with the "
                    + "Maven profile 'python' (mvn -Ppython ...)");
        }
        return Path.of(value);
    }

    @BeforeAll
    static void startTlsAgent() throws Exception {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
        agentCert = Files.writeString(dir.resolve("agent-cert.pem"), Certificates.toPem(identity.chain().toArray()));
        agentPin = Certificates.fingerprint(identity.certificate());
        Path key = Files.writeString(dir.resolve("agent-key.pem"), Certificates.toPem(identity.key()));
        tlsAgent = AgentProcess.start("grpc", 0, List.of(), List.of("--tls-cert", agentCert.toString(),
                "--tls-key", key.toString(), "--tokens", TckTokens.file("python-tokens").toString()));
    }

    @AfterAll
    static void stopTlsAgent() throws Exception {
        if (tlsAgent != null) {
            tlsAgent.close();
        }
    }

    @Test
    @Timeout(120)
    void thePythonClientListsTheSensorsAndStreamsReadings() throws Exception {
        try (AgentProcess agent = AgentProcess.start("grpc", 0)) {
            assertListsAndStreams(python(Map.of(), "--port", port(agent)));
        }
    }

    @Test
    @Timeout(120)
    void overTlsTheClientTrustingTheAgentsCertificateWithAReaderTokenListsAndStreams() throws Exception {
        assertListsAndStreams(python(Map.of("SALGATE_TOKEN", TckTokens.READER),
                "--port", port(tlsAgent), "--tls-ca", agentCert.toString()));
    }

    @Test
    @Timeout(120)
    void overTlsTheClientPinningTheAgentsCertificateListsAndStreamsUnderAnotherHostName() throws Exception {
        // the certificate names 127.0.0.1 only: a pin trusts it whatever names it has
        assertListsAndStreams(python(Map.of(), "--host", "localhost", "--port", port(tlsAgent),
                "--tls-pin", agentPin, "--token", TckTokens.READER));
    }

    @Test
    @Timeout(120)
    void aWrongTokenFailsSayingTheAgentRefusedIt() throws Exception {
        assertFails(python(Map.of(), "--port", port(tlsAgent), "--tls-ca", agentCert.toString(),
                "--token", "not-" + TckTokens.READER), "refused the token (UNAUTHENTICATED");
    }

    @Test
    @Timeout(120)
    void noTokenFailsSayingTheAgentRequiresOne() throws Exception {
        assertFails(python(Map.of(), "--port", port(tlsAgent), "--tls-ca", agentCert.toString()),
                "requires a token (UNAUTHENTICATED");
    }

    @Test
    @Timeout(120)
    void withoutTlsOptionsTheClientFailsNamingThem() throws Exception {
        assertFails(python(Map.of(), "--port", port(tlsAgent), "--token", TckTokens.READER),
                "cannot reach an agent at 127.0.0.1:" + port(tlsAgent), "(then connect with --tls-ca or --tls-pin)");
    }

    @Test
    @Timeout(120)
    void aCaThatDidNotIssueTheAgentsCertificateFailsTheTlsHandshake() throws Exception {
        Path stranger = Files.writeString(dir.resolve("stranger.pem"),
                Certificates.toPem(Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate()));
        assertFails(python(Map.of(), "--port", port(tlsAgent), "--tls-ca", stranger.toString(),
                "--token", TckTokens.READER), "TLS with the agent at 127.0.0.1:" + port(tlsAgent) + " failed");
    }

    @Test
    @Timeout(120)
    void anotherPinFailsNamingBothFingerprints() throws Exception {
        String other = Certificates.fingerprint(Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate());
        assertFails(python(Map.of(), "--port", port(tlsAgent), "--tls-pin", other, "--token", TckTokens.READER),
                "presented a certificate with SHA-256 fingerprint " + agentPin + ", not the pinned " + other);
    }

    @Test
    @Timeout(120)
    void thePythonClientCompilesTheSchemaTheAgentJarCarries() throws Exception {
        try (AgentProcess agent = AgentProcess.start("grpc", 0)) {
            assertListsAndStreams(python(Map.of(), "--protos", required(AgentProcess.AGENT_JAR).toString(),
                    "--port", port(agent)));
        }
    }

    @Test
    @Timeout(120)
    void aDirectoryWithoutTheSchemaFailsNamingWhatIsMissing() throws Exception {
        assertFails(python(Map.of(), "--protos", dir.toString(), "--port", port(tlsAgent)),
                "holds no salgate.proto or salgate_service.proto");
    }

    private static String port(AgentProcess agent) {
        return Integer.toString(agent.port());
    }

    private record Run(int exit, List<String> lines) {
        String output() {
            return String.join("\n", lines);
        }
    }

    /** Runs the script with the sensor and count the assertions expect, and these arguments and environment. */
    private static Run python(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getProperty("salgate.python", "python3"),
                required("salgate.python.client").toString(), "--sensor", "DUMMY_0", "--count",
                Integer.toString(READINGS)));
        command.addAll(List.of(args));
        Path output = Files.createTempFile(dir, "python-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        Map<String, String> environment = new HashMap<>(builder.environment());
        environment.remove("SALGATE_TOKEN");
        environment.putAll(env);
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process client = builder.start();
        if (!client.waitFor(60, TimeUnit.SECONDS)) {
            client.destroyForcibly().waitFor();
            throw new AssertionError("the Python client did not finish in 60 s: " + command + "\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Run(client.exitValue(), Files.readAllLines(output, StandardCharsets.UTF_8));
    }

    private static void assertListsAndStreams(Run run) {
        assertEquals(0, run.exit(), "the Python client failed:\n" + run.output());
        assertTrue(run.lines().contains("28 sensors"), "expected '28 sensors' in:\n" + run.output());
        assertEquals(28, run.lines().stream().filter(l -> l.matches("(DUMMY_\\d+ +dummy|[A-Z_0-9]+ +os) +IDLE")).count(),
                "expected 20 dummy and 8 os sensor lines in:\n" + run.output());
        List<String> readings = run.lines().stream().filter(l -> l.startsWith("DUMMY_0 #")).toList();
        assertEquals(READINGS, readings.size(), "expected " + READINGS + " readings in:\n" + run.output());
        for (int i = 0; i < READINGS; i++) {
            assertTrue(readings.get(i).matches("DUMMY_0 #" + i + " \\S+ OK"), readings.get(i));
        }
    }

    /** The client exits non-zero with one line of its own that says all of {@code texts}, and no traceback. */
    private static void assertFails(Run run, String... texts) {
        assertNotEquals(0, run.exit(), "the Python client succeeded:\n" + run.output());
        assertTrue(run.lines().stream().anyMatch(l -> List.of(texts).stream().allMatch(l::contains)),
                "expected a line saying " + List.of(texts) + " in:\n" + run.output());
        assertTrue(run.lines().stream().noneMatch(l -> l.startsWith("Traceback")), run.output());
        assertTrue(run.lines().stream().noneMatch(l -> l.matches("\\S+ +(dummy|os) +IDLE")),
                "the client listed sensors it should not have reached:\n" + run.output());
    }
}
