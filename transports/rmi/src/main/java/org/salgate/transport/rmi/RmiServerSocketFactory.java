package org.salgate.transport.rmi;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMIServerSocketFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.Ports;
import org.salgate.transport.tls.TlsConfig;

/**
 * Makes RMI's listening sockets, bound to one address. RMI shares a listening port between the
 * objects exported with equal factories, so equality decides sharing: an agent's factory is equal
 * only to itself (its registry, agent object and sessions share one port, apart from any other
 * agent in the JVM), while the client-side factory for callbacks is shared by address. With a
 * {@link TlsConfig}, accepted connections speak TLS; the handshake runs on RMI's connection thread.
 * An agent's connections are {@link GuardedSocket}s: its registry takes no changes over them, and
 * a read on them waits at most the agent's read timeout.
 */
final class RmiServerSocketFactory implements RMIServerSocketFactory {

    /** How long closing waits for a port to be released: far above the few ms it takes. */
    private static final long RELEASE_WAIT_MILLIS = 2_000;

    private final InetAddress bindAddress;
    private final Object key;
    private final TlsConfig tls;
    private final String server;
    /** The agent's read timeout and refused registry calls; null for a factory that is not an agent's. */
    private final Guard guard;
    private final List<ServerSocket> created = new CopyOnWriteArrayList<>();

    /** What an agent's accepted connections are held to. */
    private record Guard(int readTimeoutMillis, RegistryGuard.Refusals refusals) {}

    private RmiServerSocketFactory(InetAddress bindAddress, Object key, TlsConfig tls, String server, Guard guard) {
        this.bindAddress = bindAddress;
        this.key = key;
        this.tls = tls;
        this.server = server;
        this.guard = guard;
    }

    /**
     * A factory for one agent, {@code server} in its log, equal to no other; TLS when {@code tls} is
     * set. No read on its connections waits more than {@code readTimeoutMillis} (positive).
     */
    static RmiServerSocketFactory forAgent(InetAddress bindAddress, TlsConfig tls, String server, int readTimeoutMillis) {
        if (readTimeoutMillis <= 0) {
            throw new IllegalArgumentException("the read timeout must be positive, got " + readTimeoutMillis + " ms");
        }
        return new RmiServerSocketFactory(bindAddress, new Object(), tls, server,
                new Guard(readTimeoutMillis, new RegistryGuard.Refusals()));
    }

    /** A factory equal to every other shared one with the same address and TLS setting. */
    static RmiServerSocketFactory shared(InetAddress bindAddress, TlsConfig tls) {
        return new RmiServerSocketFactory(bindAddress, "shared:" + bindAddress + (tls != null ? ":tls" : ""), tls,
                "RMI callbacks " + bindAddress.getHostAddress(), null);
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        ServerSocket socket = new TrackingServerSocket(port, Ports.ACCEPT_BACKLOG, bindAddress, tls, guard,
                new AcceptBackoff(server + " (port " + port + ")"));
        created.add(socket);
        return socket;
    }

    /** How many calls changing the registry were refused on this (agent's) factory's connections. */
    long refusedRegistryCalls() {
        return guard == null ? 0 : guard.refusals().count();
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
     * Closes the sockets this factory made and the connections they accepted. RMI never closes a
     * socket it opened for port 0, and keeps accepted connections open until they idle out; a client
     * would reuse such a connection and reach an agent that is gone, even after a new one started
     * on the same port.
     */
    void closeAll() {
        List<Integer> ports = new ArrayList<>();
        for (ServerSocket socket : created) {
            ports.add(socket.getLocalPort());
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed or broken: nothing left to release
            }
        }
        created.clear();
        for (int port : ports) {
            // RMI's accept thread releases the port only once it wakes up, after close() returned
            Ports.awaitReleased(bindAddress, port, Duration.ofMillis(RELEASE_WAIT_MILLIS));
        }
    }

    /**
     * A listening socket that remembers the connections it accepted, and closes them with itself.
     * A failed accept (out of descriptors, most often) is retried here after a pause, see
     * {@link AcceptBackoff}: RMI's own accept loop would sleep ten seconds after ten failures in a
     * row, and not accept meanwhile even once descriptors are free.
     */
    private static final class TrackingServerSocket extends ServerSocket {
        private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();
        private final TlsConfig tls;
        private final Guard guard;
        private final AcceptBackoff backoff;

        TrackingServerSocket(int port, int backlog, InetAddress bindAddress, TlsConfig tls, Guard guard,
                             AcceptBackoff backoff) throws IOException {
            super(port, backlog, bindAddress);
            this.tls = tls;
            this.guard = guard;
            this.backoff = backoff;
        }

        @Override
        public Socket accept() throws IOException {
            while (true) {
                Socket socket = acceptRetrying();
                accepted.removeIf(Socket::isClosed);
                accepted.add(socket);
                if (isClosed()) {
                    closeAccepted();
                }
                Socket served = tls == null ? socket : tls.acceptedSocket(socket);
                if (guard == null) {
                    return served;
                }
                try {
                    return new GuardedSocket(served, guard.readTimeoutMillis(), guard.refusals());
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
            closeAccepted();
        }

        private void closeAccepted() {
            if (accepted == null) {
                return; // the constructor failed to bind and closed the socket before this field was set
            }
            for (Socket socket : accepted) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // already broken
                }
            }
            accepted.clear();
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
}
