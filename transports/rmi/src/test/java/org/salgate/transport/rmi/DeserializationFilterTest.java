package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.rmi.registry.LocateRegistry;
import java.rmi.server.RemoteObject;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingServerHandler;

@Timeout(60)
class DeserializationFilterTest {

    @Test
    void agentRejectsAnythingButACallbackStub() throws Exception {
        RecordingServerHandler handler = new RecordingServerHandler();
        TransportServer server = new RmiTransportProvider().createServer(ServerOptions.builder().build());
        server.start(handler);
        try {
            AgentRemote agent = (AgentRemote) LocateRegistry.getRegistry("127.0.0.1", server.localAddress().getPort())
                    .lookup(RmiTransportProvider.BINDING_NAME);
            Method open = AgentRemote.class.getMethod("open", CallbackRemote.class);
            var ref = ((RemoteObject) Proxy.getInvocationHandler(agent)).getRef();
            HashMap<String, String> notAStub = new HashMap<>(); // stands for any gadget class

            Exception e = assertThrows(Exception.class,
                    () -> ref.invoke(agent, open, new Object[] {notAStub}, methodHash(open)));

            assertTrue(causes(e, InvalidClassException.class), "rejected by the filter: " + e);
            assertEquals(null, handler.opened.poll(200, TimeUnit.MILLISECONDS), "no session was opened");
        } finally {
            server.close();
        }
    }

    @Test
    void frameFilterAllowsBytesAndRejectsOtherClassesAndOversizedArrays() throws Exception {
        long[] reported = {-1};
        ObjectInputFilter filter = RmiFilters.frames(16, n -> reported[0] = n);

        assertEquals(16, ((byte[]) read(new byte[16], filter)).length);
        assertThrows(InvalidClassException.class, () -> read(new HashMap<String, String>(), filter));
        assertThrows(InvalidClassException.class, () -> read(new byte[17], filter));
        assertEquals(17, reported[0]);
    }

    @Test
    void pushFilterAllowsFullBatchesOnly() throws Exception {
        ObjectInputFilter filter = RmiFilters.pushes(16, 512, n -> { });

        assertEquals(512, ((byte[][]) read(new byte[512][8], filter)).length);
        assertThrows(InvalidClassException.class, () -> read(new long[512], filter));
        assertThrows(InvalidClassException.class, () -> read(new byte[513][1], filter));
        assertThrows(InvalidClassException.class, () -> read(new byte[][] {new byte[17]}, filter));
        assertThrows(InvalidClassException.class, () -> read(new Object[] {new byte[1]}, filter));
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
