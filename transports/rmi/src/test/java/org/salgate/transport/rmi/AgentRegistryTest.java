package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.net.Socket;
import java.rmi.AccessException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.ObjID;
import java.rmi.server.UID;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;

/**
 * A process on the agent's machine (here, this JVM over loopback: the JDK registry lets both in
 * alike) that tries to take the agent's registry name: bind, rebind and unbind are refused with
 * an AccessException, also after other calls on the same connection and when the call is written
 * by hand to dodge a byte pattern, and the agent's own binding keeps serving clients.
 */
@Timeout(60)
class AgentRegistryTest {

    /** The RMI 1.1 operation numbers and interface hash, and the 1.2 method hash, of the registry's rebind. */
    private static final int REBIND = 3;
    private static final long REGISTRY_INTERFACE_HASH = 4905912898345647071L;
    private static final long REBIND_METHOD_HASH = -8381844669958460146L;
    private static final ObjID REGISTRY = new ObjID(ObjID.REGISTRY_ID);

    private RmiTransportServer server;
    private final Impostor impostor = new Impostor();
    private AgentRemote impostorStub;

    /** An object posing as the agent: it counts the sessions it was asked to open. */
    private static final class Impostor implements AgentRemote {
        final AtomicInteger opened = new AtomicInteger();

        @Override
        public SessionRemote open() throws RemoteException {
            opened.incrementAndGet();
            throw new RemoteException("an impostor");
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = (RmiTransportServer) new RmiTransportProvider().createServer(ServerOptions.builder().build());
        server.start(new RecordingServerHandler());
        impostorStub = (AgentRemote) UnicastRemoteObject.exportObject(impostor, 0);
    }

    @AfterEach
    void stop() throws Exception {
        UnicastRemoteObject.unexportObject(impostor, true);
        server.close();
    }

    private int port() {
        return server.localAddress().getPort();
    }

    private static void assertRefused(Executable change) {
        AccessException e = assertThrows(AccessException.class, change);
        assertEquals(RegistryGuard.REFUSAL, e.getMessage());
    }

    /** The registry still hands out the agent's object, and a client gets a session from it. */
    private void assertTheAgentIsServed(Registry registry) throws Exception {
        assertEquals(port(), StubEndpoint.of(registry.lookup(RmiTransportProvider.BINDING_NAME)).port(),
                "the registry hands out an object on the agent's port");
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().port(port()).build());
        try {
            RecordingClientHandler handler = new RecordingClientHandler();
            client.connect(handler);
            client.send(Hello.of(ProtobufCodec.NAME, "after the attack"));
            assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
        } finally {
            client.close();
        }
        assertEquals(0, impostor.opened.get(), "a client reached the impostor");
    }

    @Test
    void bindRebindAndUnbindFromThisMachineAreRefusedAndTheAgentKeepsItsName() throws Exception {
        Registry registry = LocateRegistry.getRegistry("127.0.0.1", port());

        assertRefused(() -> registry.rebind(RmiTransportProvider.BINDING_NAME, impostorStub));
        assertRefused(() -> registry.bind("another-name", impostorStub));
        assertRefused(() -> registry.unbind(RmiTransportProvider.BINDING_NAME));

        assertEquals(3, server.refusedRegistryCalls());
        assertEquals(List.of(RmiTransportProvider.BINDING_NAME), List.of(registry.list()));
        assertTheAgentIsServed(registry);
    }

    @Test
    void aRebindAfterLookupsOnTheSameConnectionIsRefused() throws Exception {
        Registry registry = LocateRegistry.getRegistry("127.0.0.1", port());
        for (int i = 0; i < 3; i++) {
            registry.lookup(RmiTransportProvider.BINDING_NAME);
            registry.list();
        }
        Thread.sleep(50); // idle past a round trip: RMI pings the pooled connection before the next call

        assertRefused(() -> registry.rebind(RmiTransportProvider.BINDING_NAME, impostorStub));

        assertEquals(1, server.refusedRegistryCalls());
        assertTheAgentIsServed(registry);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"header split into blocks and resets", "method hash of a 1.2 stub"})
    void aHandWrittenRebindIsRefused(String how) throws Exception {
        boolean split = how.startsWith("header split");
        byte[] call = registryCall(split ? REBIND : -1, split ? REGISTRY_INTERFACE_HASH : REBIND_METHOD_HASH, split,
                RmiTransportProvider.BINDING_NAME, impostorStub);

        Object answer = callRaw(call);

        assertInstanceOf(AccessException.class, answer, "the registry answered " + answer);
        assertEquals(1, server.refusedRegistryCalls());
        assertTheAgentIsServed(LocateRegistry.getRegistry("127.0.0.1", port()));
    }

    /**
     * A registry call as a hand-written client may send it: the message byte, an object stream
     * whose block data holds the registry's object id, the operation and the hash, then the
     * arguments; split, every few fields end their block and some are followed by a reset.
     */
    private static byte[] registryCall(int operation, long hash, boolean split, String name, Remote stub)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(0x50);
        ObjectOutputStream out = new AnnotatedOutputStream(bytes);
        out.writeLong(0); // ObjID.REGISTRY_ID
        if (split) {
            out.flush();
            out.reset();
        }
        out.writeInt(0); // its UID: the well-known space
        out.writeLong(0);
        if (split) {
            out.flush();
        }
        out.writeShort(0);
        out.writeInt(operation);
        if (split) {
            out.flush();
            out.reset();
        }
        out.writeLong(hash);
        out.writeObject(name);
        out.writeObject(stub);
        out.flush();
        return bytes.toByteArray();
    }

    /** Opens a connection, sends {@code call} and returns what the call returned or threw. */
    private Object callRaw(byte[] call) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            out.writeInt(0x4a524d49); // "JRMI"
            out.writeShort(2);
            out.writeByte(0x4b); // stream protocol
            out.flush();
            assertEquals(0x4e, in.readUnsignedByte(), "the protocol acknowledged");
            in.readUTF();
            in.readInt();
            out.writeUTF("127.0.0.1");
            out.writeInt(0);
            out.write(call);
            out.flush();
            assertEquals(0x51, in.readUnsignedByte(), "a return");
            ObjectInputStream result = new AnnotatedInputStream(in);
            byte kind = result.readByte();
            UID.read(result);
            Object value = kind == 1 ? "a normal return" : result.readObject();
            return value;
        }
    }

    /** Writes each class's code base annotation (none), as RMI's streams carry one. */
    private static final class AnnotatedOutputStream extends ObjectOutputStream {
        AnnotatedOutputStream(OutputStream out) throws IOException {
            super(out);
        }

        @Override
        protected void annotateClass(Class<?> cl) throws IOException {
            writeObject(null);
        }

        @Override
        protected void annotateProxyClass(Class<?> cl) throws IOException {
            writeObject(null);
        }
    }

    /** Reads each class's code base annotation. */
    private static final class AnnotatedInputStream extends ObjectInputStream {
        AnnotatedInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            readObject();
            return super.resolveClass(desc);
        }

        @Override
        protected Class<?> resolveProxyClass(String[] interfaces) throws IOException, ClassNotFoundException {
            readObject();
            return super.resolveProxyClass(interfaces);
        }
    }

    @Test
    void refusedOperationsAreNamedAndLookupsAndListsPass() {
        assertEquals("rebind", RegistryGuard.refusedRegistryOperation(REGISTRY, REBIND, REGISTRY_INTERFACE_HASH));
        assertEquals("unbind", RegistryGuard.refusedRegistryOperation(REGISTRY, 4, REGISTRY_INTERFACE_HASH));
        assertEquals("rebind", RegistryGuard.refusedRegistryOperation(REGISTRY, -1, REBIND_METHOD_HASH));
        assertEquals(null, RegistryGuard.refusedRegistryOperation(REGISTRY, 2, REGISTRY_INTERFACE_HASH));
        assertEquals(null, RegistryGuard.refusedRegistryOperation(REGISTRY, 1, REGISTRY_INTERFACE_HASH));
        assertEquals("lookup", RegistryGuard.refusedRegistryOperation(REGISTRY, 2, 42),
                "a lookup with another interface's hash is not a lookup the registry knows");
        assertEquals(null, RegistryGuard.refusedRegistryOperation(new ObjID(7), REBIND, REGISTRY_INTERFACE_HASH),
                "another object's operation 3 is not the registry's");
        assertTrue(RegistryGuard.refusedRegistryOperation(REGISTRY, -1, 42).contains("hash 42"));
    }
}
