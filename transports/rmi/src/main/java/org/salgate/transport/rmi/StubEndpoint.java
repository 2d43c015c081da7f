package org.salgate.transport.rmi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.rmi.Remote;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteRef;

/**
 * Where a stub leads, read from its serialized reference as the RMI specification defines it
 * ({@code RemoteObject.writeObject}): for a {@code UnicastRef2}, a format byte, the host, the port
 * and, with format 1, the client socket factory; for a {@code UnicastRef}, the host and port.
 *
 * @param host the host recorded in the reference
 * @param port the port recorded in the reference
 * @param factory the reference's socket factory, or null when it has none (RMI's default sockets)
 */
record StubEndpoint(String host, int port, RmiClientSocketFactory factory) {

    private static final byte FORMAT_HOST_PORT_FACTORY = 1;

    /**
     * The endpoint of {@code stub}.
     *
     * @throws IOException if the stub is not an RMI stub, or names a socket factory other than this
     *     transport's
     */
    static StubEndpoint of(Remote stub) throws IOException {
        RemoteRef ref = refOf(stub);
        String refClass;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            refClass = ref.getRefClass(out);
            ref.writeExternal(out);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            in.setObjectInputFilter(info -> info.serialClass() == null || info.serialClass() == RmiClientSocketFactory.class
                    ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED);
            boolean withFormat = "UnicastRef2".equals(refClass);
            byte format = withFormat ? in.readByte() : 0;
            String host = in.readUTF();
            int port = in.readInt();
            RmiClientSocketFactory factory = null;
            if (format == FORMAT_HOST_PORT_FACTORY) {
                factory = (RmiClientSocketFactory) in.readObject();
            }
            return new StubEndpoint(host, port, factory);
        } catch (ClassNotFoundException | InvalidClassException | ClassCastException e) {
            throw new IOException("the stub names a socket factory other than the salgate RMI transport's", e);
        }
    }

    /** The host a connection to this endpoint dials when no client's lookup says otherwise. */
    String dialledHost() {
        return factory != null && factory.host() != null ? factory.host() : host;
    }

    @Override
    public String toString() {
        return dialledHost() + ":" + port;
    }

    private static RemoteRef refOf(Remote stub) throws IOException {
        if (stub instanceof RemoteObject o && o.getRef() != null) {
            return o.getRef();
        }
        if (stub != null && Proxy.isProxyClass(stub.getClass())) {
            InvocationHandler h = Proxy.getInvocationHandler(stub);
            if (h instanceof RemoteObject o && o.getRef() != null) {
                return o.getRef();
            }
        }
        throw new IOException("the object is not an RMI stub");
    }
}
