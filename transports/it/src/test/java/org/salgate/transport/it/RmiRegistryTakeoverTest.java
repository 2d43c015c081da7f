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
import java.rmi.NoSuchObjectException;
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
 * machine (this test's JVM) that looks up a registry on the agent's port, over the agent's own TLS,
 * to put its own object in the agent's place. The agent runs no registry: every registry call fails
 * with "no such object", a burst of them leaves the agent's log as it was, and a normal client with
 * a token still reaches the real agent, never the impostor.
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

    private static void assertNoRegistry(String what, org.junit.jupiter.api.function.Executable call) {
        NoSuchObjectException e = assertThrows(NoSuchObjectException.class, call, what + " found a registry");
        assertTrue(e.getMessage().contains("no such object"), e.getMessage());
    }

    @Test
    void aProcessOnTheAgentsMachineFindsNoRegistryToTakeAndClientsStillReachTheAgent() throws Exception {
        try (AgentProcess agent = startAgent()) {
            AgentRemote impostorStub = (AgentRemote) UnicastRemoteObject.exportObject(impostor, 0);
            Registry registry = LocateRegistry.getRegistry("127.0.0.1", agent.port(), new TlsSockets());
            int linesBefore = agent.outputLines().size();

            assertNoRegistry("list", registry::list);
            assertNoRegistry("lookup", () -> registry.lookup("salgate-agent"));
            for (int i = 0; i < 20; i++) {
                assertNoRegistry("rebind " + i, () -> registry.rebind("salgate-agent", impostorStub));
            }
            assertNoRegistry("bind", () -> registry.bind("salgate-agent-2", impostorStub));
            assertNoRegistry("unbind", () -> registry.unbind("salgate-agent"));
            Thread.sleep(500); // what the agent logs reaches its output
            List<String> logged = agent.outputLines();
            assertTrue(logged.size() - linesBefore <= 3, "24 registry calls took " + (logged.size() - linesBefore)
                    + " lines of the agent's log: " + logged.subList(linesBefore, logged.size()));

            try (SalClient client = SalClient.builder().transport(Transports.byName(RmiTransportProvider.NAME))
                    .host("127.0.0.1").port(agent.port()).clientName("after the attempts").token(TckTokens.ADMIN)
                    .tls(TestPki.shared().clientTls()).connectTimeout(Duration.ofSeconds(10))
                    .requestTimeout(Duration.ofSeconds(10)).connect()) {
                assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
            }
            assertEquals(0, impostor.opened.get(), "a client was handed to the impostor");
            assertTrue(agent.isAlive(), "the agent died");
        }
    }
}
