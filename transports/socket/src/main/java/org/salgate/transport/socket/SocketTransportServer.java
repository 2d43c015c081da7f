package org.salgate.transport.socket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.MemoryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A blocking-socket server: one accept thread, and a reader and a writer thread per session (the
 * writer from the session's first answer on).
 */
final class SocketTransportServer implements TransportServer {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportServer.class);

    /** How long a closing session may take to flush before it is closed anyway. */
    static final long CLOSE_GRACE_MILLIS = 2_000;

    private final ServerOptions options;
    private final AtomicLong nextSessionId = new AtomicLong(1);
    private final Map<Long, SocketSession> sessions = new ConcurrentHashMap<>();
    private final Object lifecycle = new Object();
    private final MemoryBudget budget;
    private ScheduledExecutorService timer;
    private ServerSocket serverSocket;
    private Thread acceptor;
    private ServerHandler handler;
    private volatile boolean closed;

    SocketTransportServer(ServerOptions options) {
        this.options = options;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    ServerOptions options() {
        return options;
    }

    long closeGraceMillis() {
        return CLOSE_GRACE_MILLIS;
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    @Override
    public void start(ServerHandler handler) throws IOException {
        synchronized (lifecycle) {
            if (serverSocket != null || closed) {
                throw new IllegalStateException("the server was started already");
            }
            this.handler = handler;
            ServerSocket socket;
            try {
                socket = TlsSockets.listen(options, Ports.ACCEPT_BACKLOG);
            } catch (IOException e) {
                throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                        + e.getMessage() + "; choose another host or port", e);
            }
            serverSocket = socket;
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "salgate-socket-timer-" + socket.getLocalPort());
                t.setDaemon(true);
                return t;
            });
            acceptor = new Thread(this::acceptLoop, "salgate-socket-accept-" + socket.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
        }
    }

    /**
     * Accepts until the server closes. A failed accept (out of descriptors, most often) pauses and
     * retries, see {@link AcceptBackoff}; a connection that cannot be set up (no thread to be had)
     * is closed, and the loop goes on.
     */
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
                closeQuietly(socket);
            }
        }
    }

    private void setUp(Socket socket) {
        SocketSession session = null;
        try {
            socket.setTcpNoDelay(true);
            session = new SocketSession(nextSessionId.getAndIncrement(), socket, this, handler);
            sessions.put(session.id(), session);
            if (closed) {
                sessions.remove(session.id());
                session.abort(null); // closes the socket, and the session's account in the budget
                return;
            }
            session.start();
        } catch (IOException | RuntimeException | Error e) {
            LOG.warn("setting up a connection from {} failed: {}", socket.getRemoteSocketAddress(), e.toString());
            if (session != null) {
                session.abort(e);
                sessions.remove(session.id());
            }
            closeQuietly(socket);
        }
    }

    /** What the sessions draw on together, for their unfinished frames and their outbound queues. */
    MemoryBudget budget() {
        return budget;
    }

    void sessionFinished(SocketSession session) {
        sessions.remove(session.id());
        synchronized (sessions) {
            sessions.notifyAll();
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        synchronized (lifecycle) {
            if (serverSocket == null) {
                throw new IllegalStateException("the server is not started");
            }
            return new InetSocketAddress(serverSocket.getInetAddress(), serverSocket.getLocalPort());
        }
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (serverSocket == null) {
                return;
            }
            closeQuietly(serverSocket);
        }
        joinQuietly(acceptor, CLOSE_GRACE_MILLIS);
        for (SocketSession session : sessions.values()) {
            session.close();
        }
        awaitSessions(CLOSE_GRACE_MILLIS);
        for (SocketSession session : sessions.values()) {
            session.abort(null);
        }
        awaitSessions(CLOSE_GRACE_MILLIS);
        timer.shutdownNow();
    }

    private void awaitSessions(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (sessions) {
            while (!sessions.isEmpty()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                try {
                    sessions.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void joinQuietly(Thread thread, long millis) {
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            LOG.debug("close failed", e);
        }
    }

    @Override
    public String toString() {
        return "socket server " + options.host() + ":" + options.port();
    }
}
