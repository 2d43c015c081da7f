package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import java.util.Objects;

/**
 * Makes the sockets that reach an exported object. It travels inside that object's stubs, so the
 * exporting side decides the address callers connect to (its configured host) instead of the
 * JVM-wide {@code java.rmi.server.hostname}. Sockets have TCP_NODELAY and a connect timeout.
 */
final class RmiClientSocketFactory implements RMIClientSocketFactory, Serializable {

    private static final long serialVersionUID = 1L;

    /** The host to connect to, or null to use the host recorded in the stub. */
    private final String host;
    private final int connectTimeoutMillis;

    RmiClientSocketFactory(String host, int connectTimeoutMillis) {
        if (connectTimeoutMillis < 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must not be negative");
        }
        this.host = host;
        this.connectTimeoutMillis = connectTimeoutMillis;
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
                && connectTimeoutMillis == f.connectTimeoutMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, connectTimeoutMillis);
    }

    @Override
    public String toString() {
        return "RmiClientSocketFactory[" + (host == null ? "stub host" : host) + "]";
    }
}
