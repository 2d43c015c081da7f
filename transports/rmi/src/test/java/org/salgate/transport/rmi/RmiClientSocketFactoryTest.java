package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.salgate.transport.testing.FakeRmiAgentPort;

class RmiClientSocketFactoryTest {

    private static Object readStubFactory() throws Exception {
        byte[] bytes = FakeRmiAgentPort.returning(RmiClientSocketFactory.inStubs());
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    @Test
    void eachClientsConnectionsArePooledApartEvenForTheSameAgent() {
        // RMI shares pooled connections between equal factories: a restarted agent must not get the dead ones
        assertNotEquals(AgentPorts.sockets(1000), AgentPorts.sockets(1000));
    }

    @Test
    void aStubsFactoryReadWhileAClientReadsIsThatClientsOwn() throws Exception {
        RmiClientSocketFactory client = AgentPorts.sockets(1000);
        try (RmiClientSocketFactory.Scope reading = client.reading()) {
            assertSame(client, readStubFactory());
            assertSame(client, readStubFactory());
        }
        assertEquals(2, client.resolved());
        assertNotSame(client, readStubFactory(), "the scope ended");
    }

    @Test
    void aStubsFactoryReadOutsideAClientRefusesToConnect() throws Exception {
        RmiClientSocketFactory read = (RmiClientSocketFactory) readStubFactory();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            IOException e = assertThrows(IOException.class,
                    () -> read.createSocket("127.0.0.1", listener.getLocalPort()).close());
            assertTrue(e.getMessage().contains("read outside a salgate RMI client"), e.getMessage());
        }
    }
}
