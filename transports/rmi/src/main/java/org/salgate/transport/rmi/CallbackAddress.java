package org.salgate.transport.rmi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.rmi.Remote;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteRef;

/**
 * Where a callback stub would make the agent connect, read from the stub's serialized reference as
 * the RMI specification defines it ({@code RemoteObject.writeObject}): for a {@code UnicastRef2},
 * a format byte, the host, the port and, with format 1, the client socket factory; for a
 * {@code UnicastRef}, the host and port. The factory, when it is this transport's, names the host
 * actually dialled.
 */
final class CallbackAddress {

    private static final byte FORMAT_HOST_PORT_FACTORY = 1;

    private CallbackAddress() {}

    /**
     * The host the agent would dial to reach {@code callback}.
     *
     * @throws IOException if the stub's reference is not one this transport can read
     */
    static String hostOf(Remote callback) throws IOException {
        RemoteRef ref = refOf(callback);
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
            in.readInt();
            if (format == FORMAT_HOST_PORT_FACTORY && in.readObject() instanceof RmiClientSocketFactory f
                    && f.host() != null) {
                return f.host();
            }
            return host;
        } catch (ClassNotFoundException e) {
            throw new IOException("the callback names a socket factory this agent does not know", e);
        }
    }

    /** Whether {@code host} is the address {@code client} (as RMI reports a caller's host) connected from. */
    static boolean sameAddress(String host, String client) {
        try {
            return InetAddress.getByName(host).equals(InetAddress.getByName(client));
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static RemoteRef refOf(Remote stub) throws IOException {
        if (stub instanceof RemoteObject o && o.getRef() != null) {
            return o.getRef();
        }
        if (Proxy.isProxyClass(stub.getClass())) {
            InvocationHandler h = Proxy.getInvocationHandler(stub);
            if (h instanceof RemoteObject o && o.getRef() != null) {
                return o.getRef();
            }
        }
        throw new IOException("the callback is not an RMI stub");
    }
}
