package org.salgate.transport.rmi;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.Remote;
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
 * Makes an agent's listening sockets, bound to one address. Equal factories share a port, and an
 * agent's is equal only to itself: its agent and sessions share one port. With a {@link TlsConfig},
 * accepted connections speak TLS. Connections reach RMI as {@link AgentConnection}s, which never
 * wait longer than the hello timeout and answer a client's bootstrap with the agent's stub.
 */
final class RmiServerSocketFactory implements RMIServerSocketFactory {

    /**
     * How long a closing listener lets RMI write the answers under way on its connections (the last
     * poll of each session, which tells its client that the session ended) before it closes them.
     */
    private static final Duration DRAIN = Duration.ofMillis(250);

    private final InetAddress bindAddress;
    private final TlsConfig tls;
    /** The longest a read on a connection waits, in ms. */
    private final int readTimeoutMillis;
    private final List<ServerSocket> created = new CopyOnWriteArrayList<>();
    /** The agent's stub as an object stream, once it is exported. */
    private volatile byte[] agentStub;

    /** A factory for one agent, equal to no other: no read on its connections waits more than {@code readTimeoutMillis} (positive). */
    RmiServerSocketFactory(InetAddress bindAddress, TlsConfig tls, int readTimeoutMillis) {
        this.bindAddress = bindAddress;
        this.tls = tls;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        ServerSocket socket = new TrackingServerSocket(port);
        created.add(socket);
        return socket;
    }

    /** Answers every later bootstrap on this factory's connections with {@code stub}. */
    void handOut(Remote stub) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(stub);
        }
        agentStub = bytes.toByteArray();
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
        created.forEach(RmiServerSocketFactory::closeQuietly);
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

    /**
     * A listening socket that closes the connections it accepted with itself. A failed accept (out
     * of descriptors, most often) is retried after an {@link AcceptBackoff} pause: RMI's own accept
     * loop would sleep ten seconds after ten failures in a row, and not accept meanwhile.
     */
    private final class TrackingServerSocket extends ServerSocket {
        private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();
        private final AcceptBackoff backoff;

        TrackingServerSocket(int port) throws IOException {
            super(port, Ports.ACCEPT_BACKLOG, bindAddress);
            backoff = new AcceptBackoff("RMI agent " + bindAddress.getHostAddress() + ":" + getLocalPort());
        }

        @Override
        public Socket accept() throws IOException {
            while (true) {
                Socket socket;
                try {
                    socket = super.accept();
                    backoff.accepted();
                } catch (IOException e) {
                    if (isClosed()) {
                        throw e;
                    }
                    backoff.failed(e);
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedIOException("interrupted while accepting was failing: " + e);
                    }
                    continue;
                }
                accepted.removeIf(Socket::isClosed);
                accepted.add(socket);
                if (isClosed()) {
                    close();
                }
                try {
                    Socket served = tls == null ? socket : tls.acceptedSocket(socket);
                    return new AgentConnection(served, readTimeoutMillis, agentStub);
                } catch (IOException peerGone) {
                    socket.close(); // reset before it was served: accept the next one
                    if (isClosed()) {
                        throw peerGone;
                    }
                }
            }
        }

        /**
         * Stops listening, then ends the connections it accepted: those RMI did not close within
         * {@link #DRAIN} are closed. They are not shut for input first to hurry RMI: a request
         * already in a connection's buffer (a session's last poll) would then be lost unanswered,
         * and its client would take the end of the session for a failure.
         */
        @Override
        public void close() throws IOException {
            super.close();
            if (accepted == null) { // the constructor failed to bind and closed the socket
                return;
            }
            long deadline = System.nanoTime() + DRAIN.toNanos();
            accepted.removeIf(Socket::isClosed);
            while (!accepted.isEmpty() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                accepted.removeIf(Socket::isClosed);
            }
            accepted.forEach(RmiServerSocketFactory::closeQuietly);
            accepted.clear();
        }
    }
}
