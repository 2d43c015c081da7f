package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.rmi.server.RMIServerSocketFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.Ports;
import org.salgate.transport.tls.TlsConfig;

/**
 * Makes RMI's listening sockets, bound to one address. Equal factories share a port: an agent's is
 * equal only to itself (its registry, agent and sessions on one port), the clients' callback one is
 * shared by address. With a {@link TlsConfig}, accepted connections speak TLS. An agent's
 * connections reach RMI as {@link GuardedSocket}s: read through a {@link RegistryGuard}, and never
 * waiting longer than the hello timeout (RMI's own is two hours).
 */
final class RmiServerSocketFactory implements RMIServerSocketFactory {

    private final InetAddress bindAddress;
    private final Object key;
    private final TlsConfig tls;
    private final String server;
    /** The longest a read on an agent's connection waits, in ms; 0 for a factory that is not an agent's. */
    private final int readTimeoutMillis;
    private final RegistryGuard.Refusals refusals = new RegistryGuard.Refusals();
    private final List<ServerSocket> created = new CopyOnWriteArrayList<>();

    private RmiServerSocketFactory(InetAddress bindAddress, Object key, TlsConfig tls, String server,
                                   int readTimeoutMillis) {
        this.bindAddress = bindAddress;
        this.key = key;
        this.tls = tls;
        this.server = server;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /**
     * A factory for one agent, {@code server} in its log, equal to no other; TLS when {@code tls} is
     * set. No read on its connections waits more than {@code readTimeoutMillis} (positive).
     */
    static RmiServerSocketFactory forAgent(InetAddress bindAddress, TlsConfig tls, String server, int readTimeoutMillis) {
        if (readTimeoutMillis <= 0) {
            throw new IllegalArgumentException("the read timeout must be positive, got " + readTimeoutMillis + " ms");
        }
        return new RmiServerSocketFactory(bindAddress, new Object(), tls, server, readTimeoutMillis);
    }

    /** A factory equal to every other shared one with the same address and TLS setting. */
    static RmiServerSocketFactory shared(InetAddress bindAddress, TlsConfig tls) {
        return new RmiServerSocketFactory(bindAddress, "shared:" + bindAddress + (tls != null ? ":tls" : ""), tls,
                "RMI callbacks " + bindAddress.getHostAddress(), 0);
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        ServerSocket socket = new TrackingServerSocket(port, new AcceptBackoff(server + " (port " + port + ")"));
        created.add(socket);
        return socket;
    }

    /** How many calls changing the registry were refused on this (agent's) factory's connections. */
    long refusedRegistryCalls() {
        return refusals.count();
    }

    /** How many listening sockets this factory made. */
    int listeningSockets() {
        return created.size();
    }

    /** The port of the last socket made, or -1. */
    int lastPort() {
        return created.isEmpty() ? -1 : created.get(created.size() - 1).getLocalPort();
    }

    /**
     * Closes the sockets this factory made and the connections they accepted, waiting for their
     * ports: RMI would keep both, and a client could reuse a connection to an agent that is gone.
     */
    void closeAll() {
        for (ServerSocket socket : created) {
            closeQuietly(socket);
        }
        for (ServerSocket socket : created) { // RMI's accept thread releases the port once it wakes up
            Ports.awaitReleased(bindAddress, socket.getLocalPort(), Duration.ofSeconds(2));
        }
        created.clear();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // already closed or broken: nothing left to release
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RmiServerSocketFactory f && key.equals(f.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    /**
     * A listening socket that closes the connections it accepted with itself. A failed accept (out
     * of descriptors, most often) is retried here after a pause, see {@link AcceptBackoff}: RMI's own
     * accept loop would sleep ten seconds after ten failures in a row, and not accept meanwhile.
     */
    private final class TrackingServerSocket extends ServerSocket {
        private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();
        private final AcceptBackoff backoff;

        TrackingServerSocket(int port, AcceptBackoff backoff) throws IOException {
            super(port, Ports.ACCEPT_BACKLOG, bindAddress);
            this.backoff = backoff;
        }

        @Override
        public Socket accept() throws IOException {
            while (true) {
                Socket socket = acceptRetrying();
                accepted.removeIf(Socket::isClosed);
                accepted.add(socket);
                if (isClosed()) {
                    close();
                }
                try {
                    Socket served = tls == null ? socket : tls.acceptedSocket(socket);
                    return readTimeoutMillis == 0 ? served : new GuardedSocket(served, readTimeoutMillis, refusals);
                } catch (IOException peerGone) {
                    socket.close(); // reset before it was served: accept the next one
                    if (isClosed()) {
                        throw peerGone;
                    }
                }
            }
        }

        private Socket acceptRetrying() throws IOException {
            while (true) {
                try {
                    Socket socket = super.accept();
                    backoff.accepted();
                    return socket;
                } catch (IOException e) {
                    if (isClosed()) {
                        throw e;
                    }
                    backoff.failed(e);
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedIOException("interrupted while accepting was failing: " + e);
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            super.close();
            if (accepted != null) { // null when the constructor failed to bind and closed the socket
                accepted.forEach(RmiServerSocketFactory::closeQuietly);
                accepted.clear();
            }
        }
    }

    /**
     * A connection accepted by an agent, as RMI is given it: it reads through a {@link RegistryGuard},
     * tells the guard when RMI answers, and bounds every read by the agent's read timeout. It offers
     * what RMI's connection handler uses of a socket, taken from the accepted (plain or TLS) one.
     */
    static final class GuardedSocket extends Socket {
        private final Socket socket;
        private final int readTimeoutMillis;
        private final RegistryGuard input;
        private final OutputStream output;

        GuardedSocket(Socket socket, int readTimeoutMillis, RegistryGuard.Refusals refusals) throws IOException {
            super((SocketImpl) null);
            this.socket = socket;
            this.readTimeoutMillis = readTimeoutMillis;
            socket.setSoTimeout(readTimeoutMillis);
            this.input = new RegistryGuard(socket, refusals);
            this.output = input.watching(socket.getOutputStream());
        }

        @Override
        public InputStream getInputStream() {
            return input;
        }

        @Override
        public OutputStream getOutputStream() {
            return output;
        }

        /** Sets the read timeout, never above (nor, for 0, without) this connection's bound. */
        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            socket.setSoTimeout(timeout == 0 || timeout > readTimeoutMillis ? readTimeoutMillis : timeout);
        }

        @Override
        public int getSoTimeout() throws SocketException {
            return socket.getSoTimeout();
        }

        @Override
        public void setTcpNoDelay(boolean on) throws SocketException {
            socket.setTcpNoDelay(on);
        }

        @Override
        public void setKeepAlive(boolean on) throws SocketException {
            socket.setKeepAlive(on);
        }

        @Override
        public InetAddress getInetAddress() {
            return socket.getInetAddress();
        }

        @Override
        public int getPort() {
            return socket.getPort();
        }

        @Override
        public InetAddress getLocalAddress() {
            return socket.getLocalAddress();
        }

        @Override
        public int getLocalPort() {
            return socket.getLocalPort();
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return socket.getRemoteSocketAddress();
        }

        @Override
        public boolean isClosed() {
            return socket.isClosed();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }

        @Override
        public String toString() {
            return "guarded " + socket;
        }
    }
}
