package org.salgate.transport.rmi;

import java.io.IOException;
import java.net.InetAddress;
import java.rmi.Remote;
import java.util.Arrays;
import java.util.List;

/**
 * What a client checks of the agent object a registry handed it, before it sends anything to it:
 * an agent exports that object on its registry's own port with this transport's socket factory,
 * so the object must lead to the host and port the client looked up and, when the client speaks
 * TLS, be reached over TLS with the client's own trust settings (its factory marked TLS, pinning
 * nothing). Anything else is not the agent the client authenticated, and the hello, with its
 * token, would go elsewhere.
 */
final class AgentStubCheck {

    private AgentStubCheck() {}

    /**
     * Returns normally when {@code agent} leads to {@code host:port} as an agent's object does.
     *
     * @param tls whether the client speaks TLS (and bound its trust settings around the lookup)
     * @throws IOException saying what the object leads to instead, and that nothing was sent to it
     */
    static void requireAgentAt(Remote agent, String host, int port, boolean tls) throws IOException {
        String where = host + ":" + port;
        StubEndpoint endpoint;
        try {
            endpoint = StubEndpoint.of(agent);
        } catch (IOException e) {
            throw refused(where, "an object this client cannot check (" + e.getMessage() + ")", e);
        }
        RmiClientSocketFactory factory = endpoint.factory();
        if (factory == null) {
            throw refused(where, "an object reached by RMI's default sockets, which no salgate agent uses", null);
        }
        // a factory that names no host dials the host this client looked up (see RmiClientSocketFactory)
        boolean sameHost = factory.host() == null || sameHost(factory.host(), host);
        if (endpoint.port() != port || !sameHost) {
            throw refused(where, "an object at " + endpoint + ", not on the registry's own host and port, where the"
                    + " agent serves it", null);
        }
        if (tls && (!factory.isTls() || factory.isPinned())) {
            throw refused(where, "an object reached " + (factory.isTls() ? "over TLS trusting a certificate of its own"
                    : "without TLS") + ", not with this client's TLS settings", null);
        }
    }

    private static IOException refused(String where, String what, Throwable cause) {
        return new IOException("the RMI registry at " + where + " handed out " + what + ", so the client refused it"
                + " before sending its hello or any token; check which program serves that port", cause);
    }

    /** Whether the two names are the same host: equal, or resolving to a common address. */
    static boolean sameHost(String a, String b) {
        if (a.equalsIgnoreCase(b)) {
            return true;
        }
        try {
            List<InetAddress> left = Arrays.asList(InetAddress.getAllByName(a));
            for (InetAddress address : InetAddress.getAllByName(b)) {
                if (left.contains(address)) {
                    return true;
                }
            }
            return false;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
