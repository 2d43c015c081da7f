package org.salgate.transport.rmi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.rmi.Remote;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteRef;
import java.rmi.server.UID;
import java.util.Arrays;
import java.util.List;

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

    /**
     * The endpoint of {@code stub}.
     *
     * @throws IOException if the stub is not an RMI stub, or names a socket factory other than this transport's
     */
    static StubEndpoint of(Remote stub) throws IOException {
        Object handler = stub != null && Proxy.isProxyClass(stub.getClass()) ? Proxy.getInvocationHandler(stub) : stub;
        RemoteRef ref = handler instanceof RemoteObject o ? o.getRef() : null;
        if (ref == null) {
            throw new IOException("the object is not an RMI stub");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        String refClass;
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            refClass = ref.getRefClass(out);
            ref.writeExternal(out);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            in.setObjectInputFilter(info -> info.serialClass() == null || info.serialClass() == RmiClientSocketFactory.class
                    || info.serialClass() == UID.class ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED);
            byte format = "UnicastRef2".equals(refClass) ? in.readByte() : 0;
            String host = in.readUTF();
            int port = in.readInt();
            return new StubEndpoint(host, port, format == 1 ? (RmiClientSocketFactory) in.readObject() : null);
        } catch (ClassNotFoundException | InvalidClassException | ClassCastException e) {
            throw new IOException("the stub names a socket factory other than the salgate RMI transport's", e);
        }
    }

    /**
     * What a client checks of the agent object a registry handed it, before it sends anything to
     * it: an agent exports that object on its registry's own port with this transport's socket
     * factory, so the object must lead to the host and port the client looked up and, when the
     * client speaks TLS, be reached over TLS with the client's own trust settings. Anything else is
     * not the agent the client authenticated, and the hello, with its token, would go elsewhere.
     *
     * @throws IOException saying what the object leads to instead, and that nothing was sent to it
     */
    static void requireAgentAt(Remote agent, String host, int port, boolean tls) throws IOException {
        String elsewhere = leadsElsewhere(agent, host, port, tls);
        if (elsewhere != null) {
            throw new IOException("the RMI registry at " + host + ":" + port + " handed out " + elsewhere
                    + ", so the client refused it before sending its hello or any token; check which program serves"
                    + " that port");
        }
    }

    /** What {@code agent} is when it is not the agent at {@code host:port}, else null. */
    private static String leadsElsewhere(Remote agent, String host, int port, boolean tls) {
        StubEndpoint endpoint;
        try {
            endpoint = of(agent);
        } catch (IOException e) {
            return "an object this client cannot check (" + e.getMessage() + ")";
        }
        RmiClientSocketFactory factory = endpoint.factory();
        if (factory == null) {
            return "an object reached by RMI's default sockets, which no salgate agent uses";
        }
        // a factory that names no host dials the host this client looked up (see RmiClientSocketFactory)
        if (endpoint.port() != port || (factory.host() != null && !sameHost(factory.host(), host))) {
            return "an object at " + endpoint.dialledHost() + ":" + endpoint.port()
                    + ", not on the registry's own host and port, where the agent serves it";
        }
        if (tls && !factory.isTls()) {
            return "an object reached without TLS, not with this client's TLS settings";
        }
        return null;
    }

    /** The host a connection to this endpoint dials when no client's lookup says otherwise. */
    String dialledHost() {
        return factory != null && factory.host() != null ? factory.host() : host;
    }

    /** Whether the two names are the same host: equal, or resolving to a common address. */
    private static boolean sameHost(String a, String b) {
        if (a.equalsIgnoreCase(b)) {
            return true;
        }
        try {
            List<InetAddress> left = Arrays.asList(InetAddress.getAllByName(a));
            return Arrays.stream(InetAddress.getAllByName(b)).anyMatch(left::contains);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
