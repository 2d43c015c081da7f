package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.SecureRandom;
import java.rmi.server.RMIClientSocketFactory;
import java.util.Objects;

/**
 * Makes the sockets that reach an exported object. It travels inside that object's stubs, so the
 * exporting side decides the address callers connect to (its configured host) instead of the
 * JVM-wide {@code java.rmi.server.hostname}. Sockets have TCP_NODELAY and a connect timeout.
 *
 * <p>RMI pools connections per host, port and equal factory, and may hand out a pooled connection
 * without checking it when it was used a moment ago. A connection to an agent that closed is dead,
 * and a call on it fails; so factories that reach an agent are made {@link #unique} (a restarted
 * agent on the same port, or a new client's registry lookup, never gets such a connection), while
 * the callback listener of a client JVM, which never closes, is reached with a shared factory.
 */
final class RmiClientSocketFactory implements RMIClientSocketFactory, Serializable {

    private static final long serialVersionUID = 2L;
    private static final SecureRandom INSTANCES = new SecureRandom();

    /** The host to connect to, or null to use the host recorded in the stub. */
    private final String host;
    private final int connectTimeoutMillis;
    /** Tells apart factories otherwise equal; 0 for a shared one. */
    private final long instance;

    private RmiClientSocketFactory(String host, int connectTimeoutMillis, long instance) {
        if (connectTimeoutMillis < 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must not be negative");
        }
        this.host = host;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.instance = instance;
    }

    /** A factory equal to every other shared one with the same host and timeout. */
    static RmiClientSocketFactory shared(String host, int connectTimeoutMillis) {
        return new RmiClientSocketFactory(host, connectTimeoutMillis, 0);
    }

    /** A factory equal only to itself and its copies, so that its connections are pooled apart. */
    static RmiClientSocketFactory unique(String host, int connectTimeoutMillis) {
        long instance;
        do {
            instance = INSTANCES.nextLong();
        } while (instance == 0);
        return new RmiClientSocketFactory(host, connectTimeoutMillis, instance);
    }

    /** The host this factory connects to, or null for the host recorded in the stub. */
    String host() {
        return host;
    }

    @Override
    public Socket createSocket(String stubHost, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host != null ? host : stubHost, port), connectTimeoutMillis);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (connectTimeoutMillis < 0) {
            throw new InvalidObjectException("negative connect timeout");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RmiClientSocketFactory f && Objects.equals(host, f.host)
                && connectTimeoutMillis == f.connectTimeoutMillis && instance == f.instance;
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, connectTimeoutMillis, instance);
    }

    @Override
    public String toString() {
        return "RmiClientSocketFactory[" + (host == null ? "stub host" : host) + "]";
    }
}
