package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * What each TLS mismatch looks like, on the real agent and client over the transport under test:
 * a plain client against a TLS agent and the other way round, an expired certificate, one for
 * another host, one from an unknown CA, and a pin that does not match. Each is refused within the
 * connect timeout with a message that says why, and the agent keeps serving the clients that fit.
 * A transport's test extends this class and implements {@link #provider()}.
 */
public abstract class AbstractTlsRefusalTest {

    /** The connect timeout of the refused clients: each refusal must come within it (and a margin). */
    protected static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final long REFUSAL_BOUND_MILLIS = CONNECT_TIMEOUT.toMillis() + 5_000;

    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());

    /** The transport under test. */
    protected abstract TransportProvider provider();

    @AfterEach
    void closeEverything() throws Exception {
        List<AutoCloseable> toClose = new ArrayList<>(resources);
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private Agent agent(TlsConfig tls) throws IOException {
        Agent a = Agent.builder().transport(provider()).host("127.0.0.1").port(0).agentId("tls-agent")
                .platform(new PlatformConfig(List.of(new ProtocolConfig("dummy", "dummy", "virtual",
                        Map.of("sensors", "2"))))).tls(tls).start();
        resources.add(a::close);
        return a;
    }

    private SalClient.Builder client(Agent agent, TlsConfig tls) {
        return SalClient.builder().transport(provider()).host("127.0.0.1").port(agent.port()).clientName("tls-test")
                .connectTimeout(CONNECT_TIMEOUT).requestTimeout(Duration.ofSeconds(20)).tls(tls);
    }

    private SalClient connect(Agent agent, TlsConfig tls) throws IOException {
        SalClient c = client(agent, tls).connect();
        resources.add(c);
        return c;
    }

    /** Connects expecting a refusal; returns its message after checking that it came in time. */
    private String refused(Agent agent, TlsConfig tls) {
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> connect(agent, tls),
                "the client connected although TLS does not fit");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < REFUSAL_BOUND_MILLIS, "the refusal took " + millis + " ms: " + e.getMessage());
        assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "refused without saying why");
        return e.getMessage();
    }

    private static void assertServes(SalClient client) {
        assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
        }
    }

    @Test
    @Timeout(60)
    void plainClientIsRefusedByTlsAgentAndTheAgentKeepsServing() throws Exception {
        Agent agent = agent(TestPki.shared().serverTls());
        String message = refused(agent, null);
        assertMentions(message, "TLS");
        assertServes(connect(agent, TestPki.shared().clientTls()));
    }

    @Test
    @Timeout(60)
    void tlsClientIsRefusedByPlainAgentAndTheAgentKeepsServing() throws Exception {
        Agent agent = agent(null);
        String message = refused(agent, TestPki.shared().clientTls());
        assertMentions(message, "TLS handshake");
        assertServes(connect(agent, null));
    }

    @Test
    @Timeout(60)
    void expiredCertificateIsRefused() throws Exception {
        Agent agent = agent(TlsConfig.server(TestPki.shared().expired()));
        assertMentions(refused(agent, TestPki.shared().clientTls()), "TLS handshake", "expired");
    }

    @Test
    @Timeout(60)
    void expiredCertificateTrustedAsItsOwnCaIsRefused() throws Exception {
        Certificates.KeyAndChain expired = TestPki.expiredSelfSigned();
        Agent agent = agent(TlsConfig.server(expired));
        TlsConfig trustingIt = TlsConfig.clientTrusting(List.of(expired.certificate()),
                "TLS trusting the agent's own certificate");
        assertMentions(refused(agent, trustingIt), "TLS handshake", "expired");
    }

    @Test
    @Timeout(60)
    void certificateForAnotherHostIsRefused() throws Exception {
        Agent agent = agent(TlsConfig.server(TestPki.shared().wrongHost()));
        assertMentions(refused(agent, TestPki.shared().clientTls()), "TLS handshake", "is not for");
    }

    @Test
    @Timeout(60)
    void certificateOfAnUntrustedCaIsRefused() throws Exception {
        Agent agent = agent(TlsConfig.server(new TestPki("CN=another CA").server()));
        assertMentions(refused(agent, TestPki.shared().clientTls()), "TLS handshake", "trusted CA");
    }

    @Test
    @Timeout(60)
    void pinThatDoesNotMatchIsRefused() throws Exception {
        Agent agent = agent(TestPki.shared().serverTls());
        String otherPin = Certificates.fingerprint(TestPki.shared().wrongHost().certificate());
        assertMentions(refused(agent, TlsConfig.clientPinned(otherPin)), "TLS handshake", "not the pinned");
        assertServes(connect(agent, TestPki.shared().clientTls()));
    }

    @Test
    @Timeout(60)
    void pinThatMatchesConnectsWithASelfSignedCertificate() throws Exception {
        Certificates.KeyAndChain selfSigned = Certificates.selfSigned(List.of("127.0.0.1"), 1);
        Agent agent = agent(TlsConfig.server(selfSigned));
        assertServes(connect(agent, TlsConfig.clientPinned(Certificates.fingerprint(selfSigned.certificate()))));
    }
}
