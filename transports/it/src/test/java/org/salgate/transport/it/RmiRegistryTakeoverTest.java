package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.AccessException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.client.SalClient;
import org.salgate.transport.Transports;
import org.salgate.transport.rmi.AgentRemote;
import org.salgate.transport.rmi.RmiTransportProvider;
import org.salgate.transport.rmi.SessionRemote;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * Issue 47, finding 4, as it was found: an agent program with TLS and tokens, and a process on its
 * machine (this test's JVM) that looks up the agent's registry and tries to put its own object in
 * the agent's place. Bind, rebind and unbind are refused, each attempt is logged once, a burst is
 * logged as one line with a count, and a normal client with a token still reaches the real agent.
 */
@Timeout(120)
class RmiRegistryTakeoverTest {

    @TempDir
    Path dir;

    private final Impostor impostor = new Impostor();

    /** The attacker's object: it would get the hello, token and all, of every client it is handed to. */
    private static final class Impostor implements AgentRemote {
        final AtomicInteger opened = new AtomicInteger();

        @Override
        public SessionRemote open() throws RemoteException {
            opened.incrementAndGet();
            throw new RemoteException("an impostor");
        }
    }

    /** Reaches the agent's registry over TLS, trusting the test CA, as a client of the agent would. */
    private static final class TlsSockets implements RMIClientSocketFactory {
        private final TlsConfig tls = TestPki.shared().clientTls();

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket plain = new Socket();
            plain.connect(new InetSocketAddress(host, port), 5_000);
            SSLSocket socket = tls.clientSocket(plain, host, port);
            socket.startHandshake();
            return socket;
        }
    }

    @AfterEach
    void unexport() {
        try {
            UnicastRemoteObject.unexportObject(impostor, true);
        } catch (java.rmi.NoSuchObjectException notExported) {
            // the test failed before exporting it
        }
    }

    private AgentProcess startAgent() throws Exception {
        Certificates.KeyAndChain identity = TestPki.shared().server();
        Path cert = Files.writeString(dir.resolve("agent-cert.pem"), Certificates.toPem(identity.chain().toArray()));
        Path key = Files.writeString(dir.resolve("agent-key.pem"), Certificates.toPem(identity.key()));
        Path tokens = Files.write(dir.resolve("tokens"), List.of(TckTokens.ADMIN + " admin", TckTokens.READER + " reader"),
                StandardCharsets.UTF_8);
        return AgentProcess.start(RmiTransportProvider.NAME, 0, List.of(), List.of("--tls-cert", cert.toString(),
                "--tls-key", key.toString(), "--tokens", tokens.toString()));
    }

    private static void assertRefused(String what, org.junit.jupiter.api.function.Executable change) {
        AccessException e = assertThrows(AccessException.class, change, what + " was not refused");
        assertTrue(e.getMessage().contains("serves lookups only"), e.getMessage());
    }

    /** The agent's log lines about a refused {@code operation}, once {@code expected} of them are there. */
    private static List<String> refusalLines(AgentProcess agent, String operation, int expected) throws IOException {
        String mark = "refused " + operation + " on the agent's RMI registry from 127.0.0.1:";
        Await.until(() -> expected + " log lines '" + mark + "'", Duration.ofSeconds(10),
                () -> lines(agent, mark).size() >= expected);
        return lines(agent, mark);
    }

    private static List<String> lines(AgentProcess agent, String containing) {
        try {
            return agent.outputLines().stream().filter(l -> l.contains(containing)).toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the output of " + agent, e);
        }
    }

    @Test
    void aProcessOnTheAgentsMachineCannotTakeItsRegistryNameAndClientsStillReachTheAgent() throws Exception {
        try (AgentProcess agent = startAgent()) {
            AgentRemote impostorStub = (AgentRemote) UnicastRemoteObject.exportObject(impostor, 0);
            Registry registry = LocateRegistry.getRegistry("127.0.0.1", agent.port(), new TlsSockets());
            assertEquals(List.of(RmiTransportProvider.BINDING_NAME), List.of(registry.list()), "the attacker's view");

            assertRefused("rebind", () -> registry.rebind(RmiTransportProvider.BINDING_NAME, impostorStub));
            assertRefused("bind", () -> registry.bind("salgate-agent-2", impostorStub));
            assertRefused("unbind", () -> registry.unbind(RmiTransportProvider.BINDING_NAME));

            for (String operation : List.of("rebind", "bind", "unbind")) {
                List<String> logged = refusalLines(agent, operation, 1);
                assertEquals(1, logged.size(), "lines for one " + operation + ": " + logged);
                assertTrue(logged.get(0).contains("WARN"), logged.get(0));
            }

            for (int i = 0; i < 20; i++) {
                assertRefused("rebind " + i, () -> registry.rebind(RmiTransportProvider.BINDING_NAME, impostorStub));
            }
            Thread.sleep(1_100); // past the log's second: the next line tells how many it left out
            assertRefused("a last rebind", () -> registry.rebind(RmiTransportProvider.BINDING_NAME, impostorStub));
            List<String> logged = refusalLines(agent, "rebind", 2);
            assertTrue(logged.size() <= 3, "a burst of 21 rebinds took " + logged.size() + " lines: " + logged);
            assertTrue(logged.get(logged.size() - 1).contains("more like it"), logged.toString());

            try (SalClient client = SalClient.builder().transport(Transports.byName(RmiTransportProvider.NAME))
                    .host("127.0.0.1").port(agent.port()).clientName("after the attack").token(TckTokens.ADMIN)
                    .tls(TestPki.shared().clientTls()).connectTimeout(Duration.ofSeconds(10))
                    .requestTimeout(Duration.ofSeconds(10)).connect()) {
                assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
            }
            assertEquals(0, impostor.opened.get(), "a client was handed to the impostor");
            assertTrue(agent.isAlive(), "the agent died");
        }
    }
}
