package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.Agent;
import org.salgate.agent.session.Tokens;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.model.ErrorCode;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.Value;

/**
 * An upper agent relaying a lower agent that serves TLS and admits only its tokens: the relay
 * trusts the lower's certificate by a CA file or by its pin, and presents a reader token from a
 * file named in the PCML.
 */
@Timeout(60)
class SecureRelayTest {

    private static final String READER = "lower-reader-token-0123456789";
    private static final String ADMIN = "lower-admin-token-0123456789";
    private static final long AWAIT_SECONDS = 20;

    @TempDir
    Path dir;

    private final RelayFixture fixture = new RelayFixture();
    private Certificates.KeyAndChain identity;
    private Path caFile;
    private Path tokenFile;

    @BeforeEach
    void makeIdentityAndToken() throws Exception {
        identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
        caFile = Files.writeString(dir.resolve("lower-ca.pem"), Certificates.toPem(identity.certificate()));
        tokenFile = Files.writeString(dir.resolve("lower.token"), READER + "\n");
    }

    @AfterEach
    void closeAgents() {
        fixture.close();
    }

    private Agent secureLower(int port, Certificates.KeyAndChain id, String... tokenLines) throws Exception {
        return fixture.lowerAgent(port, TlsConfig.server(id), Tokens.parse(List.of(tokenLines), "test tokens"));
    }

    private Agent secureLower(int port) throws Exception {
        return secureLower(port, identity, READER + " reader", ADMIN + " admin");
    }

    @Test
    void withTheCaFileAndAReaderTokenTheUpperReadsTheLowersSensors() throws Exception {
        Agent lower = secureLower(0);
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(),
                Map.of("tlsCa", caFile.toString(), "tokenFile", tokenFile.toString()))));

        assertReadsTheLowersSensors(upper);
    }

    @Test
    void withThePinAndAReaderTokenTheUpperReadsTheLowersSensors() throws Exception {
        Agent lower = secureLower(0);
        String pin = Certificates.fingerprint(identity.certificate());
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(),
                Map.of("tlsPin", pin, "tokenFile", tokenFile.toString()))));

        assertReadsTheLowersSensors(upper);
    }

    private static void assertReadsTheLowersSensors(SalClient upper) throws Exception {
        List<String> ids = upper.listSensors().get().stream().map(SensorInfo::id).toList();
        assertEquals(List.of("DUMMY_0", "DUMMY_1", "lab.DUMMY_0", "lab.DUMMY_1", "lab.DUMMY_2"), ids);
        Reading read = upper.execute("lab.DUMMY_2", "read", Map.of()).get();
        assertEquals(Reading.Status.OK, read.status(), read.error());
        assertEquals(new Value.Num(42.0), read.value());
    }

    @Test
    void aWrongPinFailsAddProtocolNamingThePin() throws Exception {
        Agent lower = secureLower(0);
        String stranger = Certificates.fingerprint(Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate());
        SalClient upper = fixture.client(fixture.upperAgent());

        SalException e = addFails(upper, lower.port(), Map.of("tlsPin", stranger, "tokenFile", tokenFile.toString()));
        assertEquals(ErrorCode.PLUGIN_FAILURE, e.code());
        assertTrue(e.getMessage().contains("cannot reach the lower agent at 127.0.0.1:" + lower.port())
                && e.getMessage().contains("pinned"), e.getMessage());
    }

    @Test
    void aWrongTokenFailsAddProtocolNamingTheTokenParameters() throws Exception {
        Agent lower = secureLower(0);
        Path wrong = Files.writeString(dir.resolve("wrong.token"), "not-the-lower-agents-token\n");
        SalClient upper = fixture.client(fixture.upperAgent());

        SalException e = addFails(upper, lower.port(), Map.of("tlsCa", caFile.toString(), "tokenFile",
                wrong.toString()));
        assertTrue(e.getMessage().contains("refused the connection (unauthenticated)")
                && e.getMessage().contains("tokenFile"), e.getMessage());
        assertEquals(List.of("dummy"), upper.listProtocols().get().stream().map(ProtocolInfo::name).toList());
    }

    @Test
    void aPlainRelayOfATlsAgentFailsAddProtocolSayingTheLowerUsesTls() throws Exception {
        Agent lower = secureLower(0);
        SalClient upper = fixture.client(fixture.upperAgent());

        SalException e = addFails(upper, lower.port(), Map.of("tokenFile", tokenFile.toString()));
        assertTrue(e.getMessage().contains("cannot reach the lower agent at 127.0.0.1:" + lower.port())
                && e.getMessage().contains("tlsCa"), e.getMessage());
    }

    @Test
    void aLowerAgentBackWithAnotherCertificateLeavesTheRelayedSensorsDisconnectedNamingThePin() throws Exception {
        Agent lower = secureLower(0);
        int port = lower.port();
        String pin = Certificates.fingerprint(identity.certificate());
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(port,
                Map.of("tlsPin", pin, "tokenFile", tokenFile.toString(), "retryMs", "50"))));
        assertEquals(Reading.Status.OK, upper.execute("lab.DUMMY_0", "read", Map.of()).get().status());

        lower.close();
        secureLower(port, Certificates.selfSigned(List.of("127.0.0.1"), 1), READER + " reader");

        Reading failed = awaitFailedReadMentioning(upper, "pinned");
        assertTrue(failed.error().contains("lower agent at 127.0.0.1:" + port), failed.error());
        assertEquals(SensorState.DISCONNECTED, state(upper, "lab.DUMMY_0"));
    }

    @Test
    void aLowerAgentBackWithoutTheRelaysTokenLeavesTheRelayedSensorsDisconnectedNamingTheToken() throws Exception {
        Agent lower = secureLower(0);
        int port = lower.port();
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(port,
                Map.of("tlsCa", caFile.toString(), "tokenFile", tokenFile.toString(), "retryMs", "50"))));
        assertEquals(Reading.Status.OK, upper.execute("lab.DUMMY_0", "read", Map.of()).get().status());

        lower.close();
        secureLower(port, identity, ADMIN + " admin");

        Reading failed = awaitFailedReadMentioning(upper, "unauthenticated");
        assertTrue(failed.error().contains("tokenFile"), failed.error());
        assertEquals(SensorState.DISCONNECTED, state(upper, "lab.DUMMY_0"));
    }

    private static Reading awaitFailedReadMentioning(SalClient upper, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        Reading last = null;
        while (System.nanoTime() < deadline) {
            last = upper.execute("lab.DUMMY_0", "read", Map.of()).join();
            if (last.status() == Reading.Status.DISCONNECTED && last.error().contains(text)) {
                return last;
            }
            Thread.sleep(20);
        }
        return fail("no relayed read failed mentioning '" + text + "'; the last: " + last);
    }

    private static SensorState state(SalClient client, String sensorId) {
        return client.listSensors().join().stream().filter(s -> s.id().equals(sensorId)).findFirst()
                .orElseThrow(() -> new AssertionError("no sensor " + sensorId)).state();
    }

    private static SalException addFails(SalClient client, int port, Map<String, String> parameters) {
        StringBuilder pcml = new StringBuilder("<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"lab\""
                + " type=\"agent\" endpoint=\"agent:127.0.0.1:" + port + "\">");
        parameters.forEach((k, v) -> pcml.append("<parameter name=\"").append(k).append("\" value=\"").append(v)
                .append("\"/>"));
        pcml.append("</protocol></platform>");
        try {
            client.addProtocol(pcml.toString()).join();
        } catch (CompletionException e) {
            return assertInstanceOf(SalException.class, e.getCause());
        }
        return fail("adding the relay of 127.0.0.1:" + port + " succeeded");
    }
}
