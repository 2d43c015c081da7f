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
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.wire.FrameBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A blocking-socket server: one accept thread, and a reader and a writer thread per session. */
final class SocketTransportServer implements TransportServer {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportServer.class);

    /** How long a closing session may take to flush before it is closed anyway. */
    static final long CLOSE_GRACE_MILLIS = 2_000;
    private static final int BACKLOG = 256;

    private final ServerOptions options;
    private final AtomicLong nextSessionId = new AtomicLong(1);
    private final Map<Long, SocketSession> sessions = new ConcurrentHashMap<>();
    private final Object lifecycle = new Object();
    private final FrameBudget frameBudget;
    private ScheduledExecutorService timer;
    private ServerSocket serverSocket;
    private Thread acceptor;
    private ServerHandler handler;
    private volatile boolean closed;

    SocketTransportServer(ServerOptions options) {
        this.options = options;
        this.frameBudget = new FrameBudget(options.limits().maxBufferedBytes());
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
                socket = TlsSockets.listen(options, BACKLOG);
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

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("accepting a connection failed; the server stops accepting", e);
                }
                return;
            }
            if (options.tls() != null) {
                TlsSockets.handshakeThenRun(socket, this::setUp);
            } else {
                setUp(socket);
            }
        }
    }

    private void setUp(Socket socket) {
        try {
            socket.setTcpNoDelay(true);
            SocketSession session = new SocketSession(nextSessionId.getAndIncrement(), socket, this, handler);
            sessions.put(session.id(), session);
            if (closed) {
                sessions.remove(session.id());
                socket.close();
                return;
            }
            session.start();
        } catch (IOException | RuntimeException e) {
            LOG.warn("setting up a connection from {} failed", socket.getRemoteSocketAddress(), e);
            closeQuietly(socket);
        }
    }

    /** What the sessions' frame readers draw on together. */
    FrameBudget frameBudget() {
        return frameBudget;
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
