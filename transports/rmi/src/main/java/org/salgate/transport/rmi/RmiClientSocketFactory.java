package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import javax.net.ssl.SSLSocket;
import org.salgate.transport.tls.TlsConfig;

/**
 * Makes the sockets a client reaches an agent's objects with: to the host and port the client
 * dialled, with the client's own TLS settings, whatever a stub records. An agent puts a factory
 * that names no client in its stubs; a client reads stubs {@link #reading} with its own factory,
 * which then takes that one's place ({@link #readResolve}), so nothing the agent sends decides where
 * the client connects or whom it trusts. RMI pools connections per factory, and each client has its
 * own: a restarted agent gets no dead pooled connection.
 */
final class RmiClientSocketFactory implements RMIClientSocketFactory, Serializable {

    private static final long serialVersionUID = 7L;
    /** The factory of the client reading stubs on this thread. */
    private static final ThreadLocal<RmiClientSocketFactory> READING = new ThreadLocal<>();

    /** The host and port the client dialled; null in an agent's stubs. */
    private final transient String host;
    private final transient int port;
    private final transient int connectTimeoutMillis;
    /** The client's trust settings, or null without TLS. */
    private final transient TlsConfig tls;
    /** How many stub factories this one took the place of. */
    private transient int resolved;

    private RmiClientSocketFactory(String host, int port, int connectTimeoutMillis, TlsConfig tls) {
        this.host = host;
        this.port = port;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.tls = tls;
    }

    /** The factory an agent exports its objects with: a client reading a stub puts its own in its place. */
    static RmiClientSocketFactory inStubs() {
        return new RmiClientSocketFactory(null, 0, 0, null);
    }

    /** A client's factory: every socket goes to {@code host:port}, over TLS with {@code tls} unless it is null. */
    static RmiClientSocketFactory client(String host, int port, int connectTimeoutMillis, TlsConfig tls) {
        return new RmiClientSocketFactory(host, port, connectTimeoutMillis, tls);
    }

    /** A stub read on this thread's calls, until the scope closes, reaches the agent with this factory. */
    Scope reading() {
        RmiClientSocketFactory previous = READING.get();
        READING.set(this);
        return () -> READING.set(previous);
    }

    /** A {@link #reading} scope, for try-with-resources around calls that read stubs. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** How many stub factories this client's took the place of so far: one more for each stub read. */
    int resolved() {
        return resolved;
    }

    boolean isTls() {
        return tls != null;
    }

    /** The factory of the client reading this stub; outside a client's read, this one, which refuses to connect. */
    private Object readResolve() {
        RmiClientSocketFactory client = READING.get();
        if (client == null) {
            return this;
        }
        client.resolved++;
        return client;
    }

    /** Connects to the host and port the client dialled; RMI's (the stub's) are not looked at. */
    @Override
    public Socket createSocket(String stubHost, int stubPort) throws IOException {
        if (host == null) {
            throw new IOException("this is a stub of a salgate RMI agent read outside a salgate RMI client;"
                    + " reach the agent with the rmi transport's client");
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            return tls == null ? socket : handshake(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private Socket handshake(Socket plain) throws IOException {
        SSLSocket socket = tls.clientSocket(plain, host, port);
        try {
            socket.setSoTimeout(connectTimeoutMillis);
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException e) {
            throw new IOException(tls.describeFailure(host + ":" + port, e), e);
        }
    }

    @Override
    public String toString() {
        return "RmiClientSocketFactory[" + (host == null ? "in an agent's stubs" : host + ":" + port)
                + (tls != null ? ", TLS" : "") + "]";
    }
}
