package org.salgate.transport.socket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.OpenSessions;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A blocking-socket server: one accept thread, and a reader and a writer thread per session (the
 * writer from the first frame another thread queues). Over TLS each accepted connection's handshake
 * runs on a thread of its own, bounded in time, before its session exists.
 */
final class SocketTransportServer implements TransportServer {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportServer.class);

    /** How long closing sessions (and clients) may take to flush, then how long aborted ones may take. */
    static final long CLOSE_GRACE_MILLIS = 2_000;

    private final ServerOptions options;
    private final MemoryBudget budget;
    private final AtomicLong nextSessionId = new AtomicLong(1);
    private final OpenSessions<SocketSession> sessions = new OpenSessions<>();
    private volatile ServerHandler handler;
    /** Runs the end of each closing session's grace period. */
    private volatile ScheduledExecutorService timer;
    private volatile ServerSocket serverSocket;
    private Thread acceptor;
    private volatile boolean closed;

    SocketTransportServer(ServerOptions options) {
        this.options = options;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    ServerOptions options() {
        return options;
    }

    /** What the sessions draw on together, for their unfinished frames and their outbound queues. */
    MemoryBudget budget() {
        return budget;
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    @Override
    public synchronized void start(ServerHandler handler) throws IOException {
        if (serverSocket != null || closed) {
            throw new IllegalStateException("the server was started already");
        }
        this.handler = handler;
        try {
            serverSocket = TlsSockets.listen(options, Ports.ACCEPT_BACKLOG);
        } catch (IOException e) {
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage() + "; choose another host or port", e);
        }
        int port = serverSocket.getLocalPort();
        timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "salgate-socket-timer-" + port));
        acceptor = daemon(this::acceptLoop, "salgate-socket-accept-" + port);
        acceptor.start();
    }

    static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        return t;
    }

    /** Accepts until the server closes; a failed accept pauses and retries, see {@link AcceptBackoff}. */
    private void acceptLoop() {
        AcceptBackoff backoff = new AcceptBackoff(toString());
        while (!closed) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    backoff.failed(e);
                }
                continue;
            }
            backoff.accepted();
            try {
                if (options.tls() != null) {
                    TlsSockets.handshakeThenRun(socket, this::setUp);
                } else {
                    setUp(socket);
                }
            } catch (Error e) {
                LOG.warn("cannot serve the connection from {} ({}); closed it", socket.getRemoteSocketAddress(),
                        e.toString());
                TlsSockets.closeQuietly(socket);
            }
        }
    }

    private void setUp(Socket socket) {
        SocketSession session = null;
        try {
            socket.setTcpNoDelay(true);
            session = new SocketSession(nextSessionId.getAndIncrement(), socket, this, handler);
            sessions.add(session);
            if (closed) {
                sessions.remove(session);
                session.abort(null); // closes the socket, and the session's account in the budget
                return;
            }
            session.start();
        } catch (IOException | RuntimeException | Error e) {
            LOG.warn("setting up a connection from {} failed: {}", socket.getRemoteSocketAddress(), e.toString());
            if (session != null) {
                session.abort(e);
                sessions.remove(session);
            }
            TlsSockets.closeQuietly(socket);
        }
    }

    void sessionFinished(SocketSession session) {
        sessions.remove(session);
    }

    @Override
    public synchronized InetSocketAddress localAddress() {
        if (serverSocket == null) {
            throw new IllegalStateException("the server is not started");
        }
        return new InetSocketAddress(serverSocket.getInetAddress(), serverSocket.getLocalPort());
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (serverSocket == null) {
                return;
            }
            TlsSockets.closeQuietly(serverSocket);
        }
        try {
            acceptor.join(CLOSE_GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sessions.closeAll(CLOSE_GRACE_MILLIS, session -> session.abort(null));
        timer.shutdownNow();
    }

    @Override
    public String toString() {
        return "socket server " + options.host() + ":" + options.port();
    }
}
