package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.rmi.NoSuchObjectException;
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
import org.salgate.transport.testing.FakeRmiAgentPort;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;

/**
 * A client reaches the agent's objects only where it dialled and through its own sockets, whatever
 * the stub it was handed records: a stub of an object elsewhere is never called there, one reached
 * by RMI's default sockets (which the client's do not replace) is refused before anything is sent
 * to it, and an agent bound to every address is reached where the client dialled it.
 */
@Timeout(60)
class AgentStubRoutingTest {

    /** Sessions asked of an agent object somewhere else than the port that handed it out. */
    private final AtomicInteger opened = new AtomicInteger();
    private final AgentRemote elsewhere = () -> {
        opened.incrementAndGet();
        throw new RemoteException("not the agent");
    };

    @AfterEach
    void unexport() {
        try {
            UnicastRemoteObject.unexportObject(elsewhere, true);
        } catch (NoSuchObjectException notExported) {
            // the test did not export it
        }
    }

    private static IOException connectThrough(FakeRmiAgentPort port) {
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().host("127.0.0.1")
                .port(port.port()).connectTimeout(Duration.ofSeconds(10)).build());
        try {
            return assertThrows(IOException.class, () -> client.connect(new RecordingClientHandler()));
        } finally {
            client.close();
        }
    }

    @Test
    void aStubOfAnObjectOnAnotherPortIsCalledOnlyWhereTheClientDialled() throws Exception {
        AgentRemote stub = (AgentRemote) UnicastRemoteObject.exportObject(elsewhere, 0, RmiClientSocketFactory.inStubs(),
                new RmiServerSocketFactory(InetAddress.getByName("127.0.0.1"), null, 10_000));
        try (FakeRmiAgentPort port = new FakeRmiAgentPort(FakeRmiAgentPort.returning(stub))) {
            IOException e = connectThrough(port);

            assertTrue(e.getMessage().startsWith("the RMI agent at 127.0.0.1:" + port.port() + " did not open a session"),
                    e.getMessage());
            assertTrue(port.answered() >= 2, "the client's call did not go to the port it dialled");
        }
        assertEquals(0, opened.get(), "the client asked the object elsewhere for a session");
    }

    @Test
    void aStubReachedByRmisDefaultSocketsIsRefusedBeforeItIsCalled() throws Exception {
        AgentRemote stub = (AgentRemote) UnicastRemoteObject.exportObject(elsewhere, 0);
        try (FakeRmiAgentPort port = new FakeRmiAgentPort(FakeRmiAgentPort.returning(stub))) {
            IOException e = connectThrough(port);

            assertTrue(e.getMessage().contains("is not a salgate RMI agent"), e.getMessage());
            assertEquals(1, port.answered());
        }
        assertEquals(0, opened.get(), "the client asked the object elsewhere for a session");
    }

    @Test
    void anAgentBoundToEveryAddressIsReachedWhereTheClientDialledIt() throws Exception {
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
