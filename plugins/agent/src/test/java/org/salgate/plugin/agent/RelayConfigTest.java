package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.tls.Certificates;

class RelayConfigTest {

    private static final String TOKEN = "relay-reader-token-0123456789";
    private static final Map<String, String> ENVIRONMENT = Map.of("LAB_TOKEN", " " + TOKEN + "\n", "BLANK", " ");

    @TempDir
    Path dir;

    private static RelayConfig read(String endpoint, Map<String, String> parameters) throws PluginException {
        return RelayConfig.of(new ProtocolConfig("lab", "agent", endpoint, parameters),
                TestContext.on(endpoint).endpoint(), ENVIRONMENT::get);
    }

    private static String failure(String endpoint, Map<String, String> parameters) {
        return assertThrows(PluginException.class, () -> read(endpoint, parameters)).getMessage();
    }

    private static String failure(Map<String, String> parameters) {
        return failure("agent:127.0.0.1:7431", parameters);
    }

    @Test
    void defaultsAreNettyProtobufAndTheProtocolNameAsPrefix() throws Exception {
        RelayConfig c = read("agent:10.0.0.5:7431", Map.of());
        assertEquals(new RelayConfig("10.0.0.5", 7431, "netty", "protobuf", "lab.", Duration.ofSeconds(5),
                Duration.ofSeconds(5)), c);
        assertEquals("10.0.0.5:7431", c.address());
    }

    @Test
    void parametersOverrideTheDefaults() throws Exception {
        RelayConfig c = read("agent:[::1]:7500", Map.of("transport", "netty", "codec", "json", "prefix", "",
                "timeoutMs", "250", "retryMs", "1000"));
        assertEquals(new RelayConfig("::1", 7500, "netty", "json", "", Duration.ofMillis(250), Duration.ofSeconds(1)),
                c);
        assertEquals("[::1]:7500", c.address());
    }

    @Test
    void missingOrBadPortIsAClearError() {
        String missing = failure("agent:10.0.0.5", Map.of());
        assertTrue(missing.contains("host and port") && missing.contains("agent:10.0.0.5:7431"), missing);
        String empty = failure("agent:10.0.0.5:", Map.of());
        assertTrue(empty.contains("host and port"), empty);
        String bad = failure("agent:10.0.0.5:seventy", Map.of());
        assertTrue(bad.contains("1 to 65535") && bad.contains("'seventy'"), bad);
        assertTrue(failure("agent:10.0.0.5:70000", Map.of()).contains("1 to 65535"));
    }

    @Test
    void wrongEndpointTypeIsAClearError() {
        String m = failure("virtual", Map.of());
        assertTrue(m.contains("agent:host:port") && m.contains("'virtual'"), m);
    }

    @Test
    void unknownTransportOrCodecNamesTheAvailableOnes() {
        String transport = failure("agent:127.0.0.1:7431", Map.of("transport", "pigeon"));
        assertTrue(transport.contains("transport") && transport.contains("'pigeon'") && transport.contains("netty"),
                transport);
        String codec = failure("agent:127.0.0.1:7431", Map.of("codec", "morse"));
        assertTrue(codec.contains("'morse'") && codec.contains("protobuf"), codec);
    }

    @Test
    void badPrefixOrTimeoutIsAClearError() {
        String prefix = failure("agent:127.0.0.1:7431", Map.of("prefix", "lab/"));
        assertTrue(prefix.contains("prefix") && prefix.contains("'lab/'"), prefix);
        String timeout = failure("agent:127.0.0.1:7431", Map.of("timeoutMs", "0"));
        assertTrue(timeout.contains("timeoutMs") && timeout.contains("'0'"), timeout);
    }

    @Test
    void withoutTlsParametersTheRelayConnectsPlainWithoutAToken() throws Exception {
        RelayConfig c = read("agent:127.0.0.1:7431", Map.of());
        assertNull(c.tls());
        assertEquals("", c.token());
    }

    @Test
    void tlsCaTrustsThatFileAndChecksTheHostName() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"),
                Certificates.toPem(Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate()));
        RelayConfig c = read("agent:127.0.0.1:7431", Map.of("tlsCa", ca.toString()));
        assertNotNull(c.tls());
        assertTrue(c.tls().verifiesHostname());
        assertTrue(c.tls().toString().contains(ca.toString()), c.tls().toString());
    }

    @Test
    void tlsPinAcceptsTheFingerprintAsTheAgentPrintsIt() throws Exception {
        String pin = Certificates.fingerprint(Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate());
        RelayConfig c = read("agent:127.0.0.1:7431", Map.of("tlsPin", pin));
        assertNotNull(c.tls());
        assertFalse(c.tls().verifiesHostname());
    }

    @Test
    void tlsSystemTrustsTheSystemsCas() throws Exception {
        RelayConfig c = read("agent:127.0.0.1:7431", Map.of("tls", "system"));
        assertNotNull(c.tls());
        assertTrue(c.tls().verifiesHostname());
    }

    @Test
    void aMissingCaFileIsAClearError() {
        Path missing = dir.resolve("no-such-ca.pem");
        String m = failure(Map.of("tlsCa", missing.toString()));
        assertTrue(m.contains("tlsCa") && m.contains(missing.toString()), m);
    }

    @Test
    void aMalformedPinIsAClearError() {
        String m = failure(Map.of("tlsPin", "12:34"));
        assertTrue(m.contains("tlsPin") && m.contains("'12:34'") && m.contains("64 hex digits"), m);
    }

    @Test
    void tlsTakesOnlySystemAndOneWayOfTrustingAtATime() {
        String other = failure(Map.of("tls", "yes"));
        assertTrue(other.contains("tls") && other.contains("'yes'") && other.contains("system"), other);
        String two = failure(Map.of("tls", "system", "tlsPin", "00".repeat(32)));
        assertTrue(two.contains("one of tls, tlsCa and tlsPin"), two);
    }

    @Test
    void tokenFileGivesTheTokenOnItsFirstLine() throws Exception {
        Path file = Files.writeString(dir.resolve("lab.token"), "# the lab agent's reader token\n\n" + TOKEN + "\n");
        RelayConfig c = read("agent:127.0.0.1:7431", Map.of("tokenFile", file.toString()));
        assertEquals(TOKEN, c.token());
        assertFalse(c.toString().contains(TOKEN), "the token must not show in " + c);
    }

    @Test
    void tokenEnvGivesTheTokenOfThatVariable() throws Exception {
        assertEquals(TOKEN, read("agent:127.0.0.1:7431", Map.of("tokenEnv", "LAB_TOKEN")).token());
    }

    @Test
    void aMissingOrEmptyTokenSourceIsAClearError() throws Exception {
        Path missing = dir.resolve("missing.token");
        String noFile = failure(Map.of("tokenFile", missing.toString()));
        assertTrue(noFile.contains("tokenFile") && noFile.contains(missing.toString()), noFile);
        Path empty = Files.writeString(dir.resolve("empty.token"), "# nothing yet\n");
        String emptyFile = failure(Map.of("tokenFile", empty.toString()));
        assertTrue(emptyFile.contains("tokenFile") && emptyFile.contains("no token"), emptyFile);
        String unset = failure(Map.of("tokenEnv", "NOT_SET"));
        assertTrue(unset.contains("tokenEnv") && unset.contains("NOT_SET") && unset.contains("not set"), unset);
        String blank = failure(Map.of("tokenEnv", "BLANK"));
        assertTrue(blank.contains("BLANK") && blank.contains("not set"), blank);
        String both = failure(Map.of("tokenEnv", "LAB_TOKEN", "tokenFile", missing.toString()));
        assertTrue(both.contains("one of tokenFile and tokenEnv"), both);
    }

    @Test
    void theTokensTextInThePcmlIsRefusedNamingTheSafeWays() {
        String m = failure(Map.of("token", TOKEN));
        assertTrue(m.contains("tokenFile") && m.contains("tokenEnv"), m);
        assertFalse(m.contains(TOKEN), "the refusal repeats the token: " + m);
    }
}
