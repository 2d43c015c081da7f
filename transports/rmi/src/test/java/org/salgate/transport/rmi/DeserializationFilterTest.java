package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.UnmarshalException;
import java.rmi.server.RemoteObject;
import java.rmi.server.UnicastRemoteObject;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Framing;

@Timeout(60)
class DeserializationFilterTest {

    /** The call an agent once took a callback stub with: an object where the agent now takes none. */
    private interface OpenWithAnObject extends Remote {
        SessionRemote open(Object callback) throws RemoteException;
    }

    @Test
    void agentRejectsEveryObject() throws Exception {
        ObjectInputFilter filter = RmiFilters.agent();
        assertThrows(InvalidClassException.class, () -> read(new HashMap<String, String>(), filter));
        assertThrows(InvalidClassException.class, () -> read(new byte[1], filter));

        RecordingServerHandler handler = new RecordingServerHandler();
        TransportServer server = new RmiTransportProvider().createServer(ServerOptions.builder().build());
        server.start(handler);
        try {
            int port = server.localAddress().getPort();
            RmiClientSocketFactory sockets = AgentPorts.sockets(port);
            AgentRemote agent = AgentPorts.agent(sockets, port);
            Method open = OpenWithAnObject.class.getMethod("open", Object.class);
            var ref = ((RemoteObject) Proxy.getInvocationHandler(agent)).getRef();
            HashMap<String, String> gadget = new HashMap<>(); // stands for any gadget class

            Exception e = assertThrows(Exception.class,
                    () -> ref.invoke(agent, open, new Object[] {gadget}, methodHash(open)));

            assertTrue(causes(e, UnmarshalException.class), "refused before its argument was read: " + e);

            assertEquals(null, handler.opened.poll(200, TimeUnit.MILLISECONDS), "no session was opened");
            try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
                assertNotNull(agent.open(), "the agent still opens sessions");
            }
        } finally {
            server.close();
        }
    }

    @Test
    void agentStubFilterAdmitsAnAgentsStubAndNothingElse() throws Exception {
        AgentRemote agent = () -> null;
        SessionRemote session = new SessionRemote() {
            @Override
            public byte[] call(byte[] frame, boolean carry) {
                return frame;
            }

            @Override
            public byte[][] poll() {
                return null;
            }

            @Override
            public void leave() {
            }
        };
        RmiServerSocketFactory listener = new RmiServerSocketFactory(InetAddress.getLoopbackAddress(), null, 10_000);
        RmiClientSocketFactory inStubs = RmiClientSocketFactory.inStubs();
        try {
            Remote agentStub = UnicastRemoteObject.exportObject(agent, 0, inStubs, listener);
            Remote sessionStub = UnicastRemoteObject.exportObject(session, 0, inStubs, listener);
            ObjectInputFilter filter = RmiFilters.agentStub(RmiTransportClient.MAX_STUB_BYTES);

            assertInstanceOf(AgentRemote.class, read(agentStub, filter));
            assertThrows(InvalidClassException.class, () -> read(sessionStub, filter), "a stub of another interface");
            assertThrows(InvalidClassException.class, () -> read(new long[4], filter), "a primitive array");
            assertThrows(InvalidClassException.class, () -> read(new HashMap<String, String>(), filter));
            assertThrows(InvalidClassException.class, () -> read(agentStub, RmiFilters.agentStub(64)), "over the size");
        } finally {
            UnicastRemoteObject.unexportObject(agent, true);
            UnicastRemoteObject.unexportObject(session, true);
            listener.closeAll();
        }
    }

    @Test
    void frameFilterAllowsBytesAndRejectsOtherClassesAndOversizedArrays() throws Exception {
        List<Framing.FrameTooLargeException> reported = new ArrayList<>();
        ObjectInputFilter filter = RmiFilters.frames(16, reported::add);

        assertEquals(16, ((byte[]) read(new byte[16], filter)).length);
        assertThrows(InvalidClassException.class, () -> read(new HashMap<String, String>(), filter));
        assertEquals(List.of(), reported);
        assertThrows(InvalidClassException.class, () -> read(new byte[17], filter));
        assertEquals(1, reported.size());
        assertTrue(reported.get(0).getMessage().startsWith("frame of 17 bytes exceeds the maximum of 16"),
                reported.get(0).getMessage());
    }

    @Test
    void processWideFilterAllowsAFullPollBatchOfFramesWithinTheLimitOnly() throws Exception {
        ObjectInputFilter filter = RmiFilters.processWide(1024);

        assertEquals(RmiSession.MAX_BATCH_FRAMES,
                ((byte[][]) read(new byte[RmiSession.MAX_BATCH_FRAMES][8], filter)).length);
        assertEquals(1024, ((byte[][]) read(new byte[][] {new byte[1024]}, filter))[0].length);
        assertThrows(InvalidClassException.class, () -> read(new byte[1025][1], filter));
        assertThrows(InvalidClassException.class, () -> read(new byte[][] {new byte[1025]}, filter));
        assertThrows(InvalidClassException.class, () -> read(new Object[] {new HashMap<String, String>()}, filter));
    }

    private static Object read(Object value, ObjectInputFilter filter) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            in.setObjectInputFilter(filter);
            return in.readObject();
        }
    }

    private static boolean causes(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The RMI method hash: the first 8 bytes (little-endian) of the SHA-1 of the method's name and descriptor. */
    private static long methodHash(Method m) throws Exception {
        StringBuilder descriptor = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            descriptor.append('L').append(p.getName().replace('.', '/')).append(';');
        }
        descriptor.append(")L").append(m.getReturnType().getName().replace('.', '/')).append(';');
        ByteArrayOutputStream utf = new ByteArrayOutputStream();
        new DataOutputStream(utf).writeUTF(descriptor.toString());
        byte[] digest = MessageDigest.getInstance("SHA-1").digest(utf.toByteArray());
        long hash = 0;
        for (int i = 0; i < 8; i++) {
            hash += ((long) (digest[i] & 0xFF)) << (i * 8);
        }
        return hash;
    }
}
