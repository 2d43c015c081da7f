package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.UID;
import java.util.Objects;
import javax.net.ssl.SSLSocket;
import org.salgate.transport.tls.TlsConfig;

/**
 * Makes the sockets that reach an exported object. It travels in the object's stubs, so the
 * exporter decides the address callers dial (not the JVM-wide {@code java.rmi.server.hostname});
 * an agent on a wildcard address names none and is dialled where its registry was found. RMI pools
 * connections per equal factory, so factories reaching an agent are {@link #unique} (no dead pooled
 * connection to a stopped agent).
 *
 * <p>A TLS factory trusts the settings the client {@link #bind binds} to its thread around each call
 * that returns a stub (a stub cannot carry them, nor name a certificate to trust instead); a
 * factory deserialized unbound refuses to connect.
 */
final class RmiClientSocketFactory implements RMIClientSocketFactory, Serializable {

    private static final long serialVersionUID = 6L;
    private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();

    /** What a client binds around calls returning stubs: its trust settings (null without TLS) and the host it dialled. */
    record Binding(TlsConfig config, String host) {}

    /** A binding's extent, for try-with-resources around a call that may deserialize stubs. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** The host to connect to, or null for the host the client dialled (else the one recorded in the stub). */
    private final String host;
    private final int connectTimeoutMillis;
    /** Tells apart factories otherwise equal. */
    private final UID instance;
    /** Whether the listener this factory reaches speaks TLS. */
    private final boolean tls;
    /** No read on this factory's sockets waits longer, in ms (0: as long as RMI asks); never set in a stub. */
    private final transient int maxReadMillis;
    /** The client's trust settings and the host it dialled: given to a registry's factory, bound at deserialization to an agent's. */
    private transient Binding bound;

    private RmiClientSocketFactory(String host, int connectTimeoutMillis, UID instance, boolean tls, int maxReadMillis,
                                   Binding bound) {
        this.host = host;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.instance = instance;
        this.tls = tls;
        this.maxReadMillis = maxReadMillis;
        this.bound = bound;
    }

    /** A factory equal only to itself and its copies, so that its connections are pooled apart. */
    static RmiClientSocketFactory unique(String host, int connectTimeoutMillis) {
        return new RmiClientSocketFactory(host, connectTimeoutMillis, new UID(), false, 0, null);
    }

    /**
     * A client's factory for its registry lookup: TLS when {@code binding} has trust settings, and
     * no read waits longer than the connect timeout (RMI's handshake alone waits a minute).
     */
    static RmiClientSocketFactory lookup(Binding binding, int connectTimeoutMillis) {
        return new RmiClientSocketFactory(null, connectTimeoutMillis, new UID(),
                binding.config() != null, connectTimeoutMillis, binding);
    }

    /** This factory marked TLS, trusting the settings bound later. */
    RmiClientSocketFactory withTls() {
        return new RmiClientSocketFactory(host, connectTimeoutMillis, instance, true, maxReadMillis, null);
    }

    /** Binds {@code binding} to this thread until the scope closes. */
    static Scope bind(Binding binding) {
        Binding previous = CURRENT.get();
        CURRENT.set(binding);
        return () -> CURRENT.set(previous);
    }

    /** The host this factory connects to, or null for the host the client dialled (or else the stub's). */
    String host() {
        return host;
    }

    boolean isTls() {
        return tls;
    }

    /**
     * Connects to {@code port} on this factory's host; when it names none (an agent bound to a
     * wildcard address that advertises no host), on the host the client dialled; and only when
     * deserialized outside a client's lookup, on the host recorded in the stub.
     */
    @Override
    public Socket createSocket(String stubHost, int port) throws IOException {
        String target = host != null ? host : bound != null ? bound.host() : stubHost;
        Socket socket = maxReadMillis == 0 ? new Socket() : new Socket() {
            @Override
            public void setSoTimeout(int timeout) throws SocketException {
                super.setSoTimeout(timeout == 0 ? maxReadMillis : Math.min(timeout, maxReadMillis));
            }
        };
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(0);
            socket.connect(new InetSocketAddress(target, port), connectTimeoutMillis);
            return tls ? handshake(socket, target, port) : socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private Socket handshake(Socket plain, String target, int port) throws IOException {
        TlsConfig config = bound != null ? bound.config() : null;
        if (config == null) {
            throw new TlsFailure("the RMI agent at " + target + ":" + port + " serves TLS; connect with TLS"
                    + " (--tls, --tls-ca or --tls-pin)");
        }
        String name = bound.host();
        SSLSocket socket = config.clientSocket(plain, name, port);
        try {
            socket.setSoTimeout(connectTimeoutMillis);
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException e) {
            IOException failure = new TlsFailure(config.describeFailure(name + ":" + port, e));
            failure.addSuppressed(e);
            throw failure;
        }
    }

    /** A connection refused because TLS does not fit; its message says why, for the caller to pass on. */
    static final class TlsFailure extends IOException {
        private static final long serialVersionUID = 1L;

        TlsFailure(String message) {
            super(message);
        }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (tls || host == null) {
            bound = CURRENT.get();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RmiClientSocketFactory f && Objects.equals(host, f.host)
                && connectTimeoutMillis == f.connectTimeoutMillis && Objects.equals(instance, f.instance) && tls == f.tls
                && Objects.equals(bound, f.bound);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, connectTimeoutMillis, instance, tls);
    }

    @Override
    public String toString() {
        return "RmiClientSocketFactory[" + (host == null ? "stub host" : host) + (tls ? ", TLS" : "") + "]";
    }
}
