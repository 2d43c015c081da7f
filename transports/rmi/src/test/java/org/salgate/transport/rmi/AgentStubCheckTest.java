package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.FakeRmiRegistry;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;

/**
 * A client checks the agent object its registry lookup returned before it sends anything: an
 * object on another port, or on the registry's port of another address, is refused with a clear
 * error, and the object is never asked to open a session (which the hello and its token follow);
 * a TLS client refuses an object reached without its TLS settings.
 */
@Timeout(60)
class AgentStubCheckTest {

    /** An agent object somewhere else than the registry that handed it out: it counts the sessions asked of it. */
    private static final class Elsewhere implements AgentRemote {
        final AtomicInteger opened = new AtomicInteger();

        @Override
        public SessionRemote open() throws RemoteException {
            opened.incrementAndGet();
            throw new RemoteException("not the agent");
        }
    }

    private final Elsewhere elsewhere = new Elsewhere();

    @AfterEach
    void unexport() {
        try {
            UnicastRemoteObject.unexportObject(elsewhere, true);
        } catch (java.rmi.NoSuchObjectException notExported) {
            // the test did not export it
        }
    }

    /** {@link #elsewhere} exported on {@code host:port} (0 for any port) with the transport's socket factories. */
    private AgentRemote export(String host, int port, RmiClientSocketFactory sockets) throws IOException {
        return (AgentRemote) UnicastRemoteObject.exportObject(elsewhere, port, sockets,
                RmiServerSocketFactory.forAgent(InetAddress.getByName(host), null, 10_000));
    }

    private static IOException connectThrough(FakeRmiRegistry registry) {
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().host("127.0.0.1")
                .port(registry.port()).connectTimeout(Duration.ofSeconds(10)).build());
        try {
            return assertThrows(IOException.class, () -> client.connect(new RecordingClientHandler()));
        } finally {
            client.close();
        }
    }

    @Test
    void aLookupAnsweredWithAnObjectOnAnotherPortIsRefusedBeforeTheHello() throws Exception {
        AgentRemote stub = export("127.0.0.1", 0, RmiClientSocketFactory.unique("127.0.0.1", 5_000));
        int otherPort = StubEndpoint.of(stub).port();
        try (FakeRmiRegistry registry = new FakeRmiRegistry(FakeRmiRegistry.returning(stub))) {
            IOException e = connectThrough(registry);

            assertTrue(e.getMessage().startsWith("the RMI registry at 127.0.0.1:" + registry.port()
                    + " handed out an object at 127.0.0.1:" + otherPort + ", not on the registry's own host and port"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("refused it before sending its hello or any token"), e.getMessage());
            assertEquals(1, registry.answered());
        }
        assertEquals(0, elsewhere.opened.get(), "the client asked the object elsewhere for a session");
    }

    @Test
    void aLookupAnsweredWithAnObjectOnTheRegistryPortOfAnotherAddressIsRefused() throws Exception {
        try (FakeRmiRegistry registry = new FakeRmiRegistry(new byte[0])) {
            // the same port number on another loopback address: a listener the agent does not hold
            try (ServerSocket probe = new ServerSocket(registry.port(), 1, InetAddress.getByName("127.0.0.2"))) {
                // free there
            }
            AgentRemote stub = export("127.0.0.2", registry.port(), RmiClientSocketFactory.unique("127.0.0.2", 5_000));
            try (FakeRmiRegistry answering = new FakeRmiRegistry(FakeRmiRegistry.returning(stub))) {
                IOException e = connectThrough(answering);
                assertTrue(e.getMessage().contains("handed out an object at 127.0.0.2:" + registry.port()),
                        e.getMessage());
            }
        }
        assertEquals(0, elsewhere.opened.get(), "the client asked the object elsewhere for a session");
    }

    @Test
    void aTlsClientRefusesAnObjectReachedWithoutItsTlsSettings() throws Exception {
        AgentRemote plain = export("127.0.0.1", 0, RmiClientSocketFactory.unique("127.0.0.1", 5_000));
        int port = StubEndpoint.of(plain).port();

        IOException e = assertThrows(IOException.class, () -> StubEndpoint.requireAgentAt(plain, "127.0.0.1", port,
                true));

        assertTrue(e.getMessage().contains("an object reached without TLS, not with this client's TLS settings"),
                e.getMessage());
        assertDoesNotThrow(() -> StubEndpoint.requireAgentAt(plain, "127.0.0.1", port, false));
    }

    @Test
    void aTlsObjectFromAStubConnectsWithTheClientsOwnTlsSettingsOnly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(RmiClientSocketFactory.unique("127.0.0.1", 5_000).withTls());
        }
        RmiClientSocketFactory read; // as a stub carries it, read outside a client's lookup: no settings bound
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            read = (RmiClientSocketFactory) in.readObject();
        }

        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            IOException e = assertThrows(RmiClientSocketFactory.TlsFailure.class,
                    () -> read.createSocket("127.0.0.1", listener.getLocalPort()).close());
            assertTrue(e.getMessage().contains("serves TLS; connect with TLS"), e.getMessage());
        }
    }

    @Test
    void anObjectOnTheLookedUpHostAndPortWithTheClientsTlsPasses() throws Exception {
        AgentRemote agent = export("127.0.0.1", 0, RmiClientSocketFactory.unique("127.0.0.1", 5_000).withTls());
        int port = StubEndpoint.of(agent).port();

        assertDoesNotThrow(() -> StubEndpoint.requireAgentAt(agent, "localhost", port, true));
        IOException e = assertThrows(IOException.class, () -> StubEndpoint.requireAgentAt(agent, "127.0.0.1",
                port + 1, true));
        assertTrue(e.getMessage().contains("an object at 127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void anAgentBoundToEveryAddressIsReachedWhereItsRegistryWasFound() throws Exception {
        TransportServer server = new RmiTransportProvider().createServer(ServerOptions.builder().host("0.0.0.0").build());
        server.start(new RecordingServerHandler());
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().host("127.0.0.1")
                .port(server.localAddress().getPort()).build());
        try {
            RecordingClientHandler handler = new RecordingClientHandler();
            client.connect(handler);
            client.send(Hello.of(ProtobufCodec.NAME, "through a wildcard agent"));
            assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
        } finally {
            client.close();
            server.close();
        }
    }
}
