package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;

/**
 * What the agent's port hands out: its stub, to a client's bootstrap, then the connection closes;
 * there is no registry, so a process that looks one up or tries to bind an impostor there (here,
 * this JVM over loopback, as a process on the agent's machine would) finds none and changes
 * nothing; anything that is neither a bootstrap nor RMI is closed.
 */
@Timeout(60)
class AgentPortTest {

    private RmiTransportServer server;
    private RecordingServerHandler handler;
    /** Sessions asked of the object posing as the agent. */
    private final AtomicInteger impostorOpened = new AtomicInteger();
    private final AgentRemote impostor = () -> {
        impostorOpened.incrementAndGet();
        throw new RemoteException("an impostor");
    };

    @BeforeEach
    void start() throws Exception {
        handler = new RecordingServerHandler();
        server = (RmiTransportServer) new RmiTransportProvider().createServer(ServerOptions.builder().build());
        server.start(handler);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            UnicastRemoteObject.unexportObject(impostor, true);
        } catch (NoSuchObjectException notExported) {
            // the test did not export it
        }
        server.close();
    }

    private int port() {
        return server.localAddress().getPort();
    }

    /** Writes {@code bytes} on a new connection and reads until the agent closes it. */
    private byte[] exchange(byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return socket.getInputStream().readAllBytes();
        }
    }

    @Test
    void aBootstrapIsAnsweredWithTheAgentsStubThenClosedAndTheStubOpensSessions() throws Exception {
        byte[] answer = exchange(AgentConnection.BOOTSTRAP);

        RmiClientSocketFactory sockets = AgentPorts.sockets(port());
        Object stub;
        try (RmiClientSocketFactory.Scope reading = sockets.reading();
             ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(answer))) {
            in.setObjectInputFilter(RmiFilters.agentStub(RmiTransportClient.MAX_STUB_BYTES));
            stub = in.readObject();
            assertEquals(1, sockets.resolved(), "the stub reaches the agent through the reading client's sockets");
            SessionRemote session = ((AgentRemote) stub).open();
            byte[] hello = new ConnectionCodec(Codecs.defaultCodec()).encode(Hello.of(ProtobufCodec.NAME, "fetched"));
            session.call(hello, true);
        }
        assertNotNull(handler.opened.poll(10, TimeUnit.SECONDS), "the stub opened no session");
        assertInstanceOf(Hello.class, handler.received.get(0), "the call is handled before it returns");
    }

    @Test
    void aSessionItsClientDropsIsClosedByRmisDistributedGarbageCollection() throws Exception {
        SessionRemote session = AgentPorts.openSession(port());
        assertNotNull(handler.opened.poll(10, TimeUnit.SECONDS), "no session was opened");
        session = null; // the stub the client fetched went through its own sockets, and so go its clean calls

        Throwable cause = null;
        for (int i = 0; i < 100 && cause == null; i++) {
            System.gc();
            cause = handler.closed.getNow(null);
            Thread.sleep(100);
        }
        assertNotNull(cause, "the agent did not hear that the client dropped its session");
        assertTrue(cause.getMessage().contains("went away"), cause.getMessage());
    }

    @Test
    void aJdkRegistryOnTheAgentsPortFindsNothingAndCanBindNothing() throws Exception {
        AgentRemote impostorStub = (AgentRemote) UnicastRemoteObject.exportObject(impostor, 0);
        Registry registry = LocateRegistry.getRegistry("127.0.0.1", port());

        assertNoRegistry(registry::list);
        assertNoRegistry(() -> registry.lookup("salgate-agent"));
        assertNoRegistry(() -> registry.bind("salgate-agent", impostorStub));
        assertNoRegistry(() -> registry.rebind("salgate-agent", impostorStub));
        assertNoRegistry(() -> registry.unbind("salgate-agent"));
        assertNoRegistry(registry::list);

        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().port(port()).build());
        try {
            RecordingClientHandler received = new RecordingClientHandler();
            client.connect(received);
            client.send(Hello.of(ProtobufCodec.NAME, "after the attempts"));
            assertInstanceOf(HelloReply.class, received.received.poll(10, TimeUnit.SECONDS));
        } finally {
            client.close();
        }
        assertEquals(0, impostorOpened.get(), "a client reached the impostor");
    }

    private static void assertNoRegistry(Executable call) {
        NoSuchObjectException e = assertThrows(NoSuchObjectException.class, call);
        assertTrue(e.getMessage().contains("no such object"), e.getMessage());
    }

    @Test
    void whatIsNeitherABootstrapNorRmiIsClosedUnanswered() throws Exception {
        long start = System.nanoTime();
        byte[] answer;
        try {
            answer = exchange("GET / HTTP/1.1\r\nHost: agent\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } catch (SocketException reset) { // closed with part of the request unread
            answer = new byte[0];
        }
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(0, answer.length, "the agent answered " + answer.length + " bytes");
        assertTrue(millis < 5_000, "closed only after " + millis + " ms");
    }
}
