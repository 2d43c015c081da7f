package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.MemoryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.ConnectionUtils;
import org.xsocket.connection.IConnectHandler;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.Server;

/** The xSocket server: an {@link Server} whose connections are {@link XsocketSession}s. */
final class XsocketServer implements TransportServer {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketServer.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
    private static final int START_TIMEOUT_MILLIS = 10_000;

    private final ServerOptions options;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Map<Long, XsocketSession> sessions = new ConcurrentHashMap<>();
    private final MemoryBudget budget;
    private final AcceptBackoff acceptBackoff;
    private volatile ServerHandler handler;
    private ExecutorService workers;
    private Server server;
    private volatile InetSocketAddress localAddress;

    XsocketServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
        this.acceptBackoff = new AcceptBackoff(toString());
    }

    @Override
    public void start(ServerHandler serverHandler) throws IOException {
        this.handler = Objects.requireNonNull(serverHandler, "handler");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("this xSocket server was already started; create a new one");
        }
        int workerThreads = WorkerThreads.serverPoolSize(options.ioThreads());
        workers = WorkerThreads.newPool("salgate-xsocket-server", workerThreads);
        try {
            // xSocket's default backlog (0: the JDK's 50) drops the SYNs of a burst of connections,
            // which then wait 1, 3, 7... s for their retries
            server = new Server(InetAddress.getByName(options.host()), options.port(),
                    Map.of(IConnection.SO_REUSEADDR, Boolean.TRUE), new ConnectionHandler(),
                    TlsConnections.serverContext(options.tls()), options.tls() != null, Ports.ACCEPT_BACKLOG,
                    workerThreads, workerThreads);
            server.setWorkerpool(workers);
            server.setFlushmode(IConnection.FlushMode.ASYNC);
            server.setAutoflush(true);
            server.setStartUpLogMessage("");
            ConnectionUtils.start(server, START_TIMEOUT_MILLIS);
        } catch (IOException e) {
            if (server != null) {
                server.close();
            }
            workers.shutdownNow();
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage(), e);
        }
        localAddress = new InetSocketAddress(server.getLocalAddress(), server.getLocalPort());
        AcceptFailures.watch(localAddress.getPort(), acceptBackoff);
        LOG.debug("xSocket server listening on {}", localAddress);
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || server == null) {
            return;
        }
        List<XsocketSession> open = List.copyOf(sessions.values());
        server.close();
        AcceptFailures.forget(localAddress.getPort());
        for (XsocketSession session : open) {
            session.close();
        }
        long deadline = System.currentTimeMillis() + CLOSE_GRACE_MILLIS;
        while (!sessions.isEmpty() && System.currentTimeMillis() < deadline && !WorkerThreads.onWorker()) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        // xSocket's close above ends the connections it accepted (a peer that stopped reading loses
        // what was still queued for it); one whose end it has not reported by now is closed here.
        for (XsocketSession session : List.copyOf(sessions.values())) {
            session.closeConnectionNow();
            reportClosed(session);
        }
        workers.shutdown();
        try {
            workers.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // xSocket's acceptor closes the listening channel on its own thread, after close() returned.
        Ports.awaitReleased(localAddress.getAddress(), localAddress.getPort(), Duration.ofMillis(CLOSE_GRACE_MILLIS));
    }

    private void reportClosed(XsocketSession session) {
        sessions.remove(session.id());
        session.releaseReader();
        if (session.markCloseReported()) {
            handler.sessionClosed(session, session.failure());
        }
    }

    /**
     * xSocket's callbacks. NONTHREADED: they run serialized per connection (on its dispatcher thread,
     * or on a worker once xSocket has queued them), so one session's messages reach the handler in
     * order and one at a time. Each data callback takes everything xSocket has read (see
     * {@link ConnectionReader}).
     */
    @Execution(Execution.NONTHREADED)
    private final class ConnectionHandler implements IConnectHandler, IDataHandler, IDisconnectHandler {

        @Override
        public boolean onConnect(INonBlockingConnection connection) throws IOException {
            acceptBackoff.accepted();
            connection.setFlushmode(IConnection.FlushMode.ASYNC);
            connection.setAutoflush(true);
            connection.setOption(IConnection.TCP_NODELAY, Boolean.TRUE);
            XsocketSession session = new XsocketSession(connection, handler, options, budget,
                    XsocketServer.this::reportClosed);
            connection.setAttachment(session);
            sessions.put(session.id(), session);
            handler.sessionOpened(session);
            if (closed.get()) {
                session.close();
            } else {
                // Over TLS xSocket reports the connection from the thread that finished the
                // handshake, after it sent its last record: the client's first frame may have been
                // decrypted on another thread and reported to onData before this session existed.
                // Nothing more may come until it is answered, so take it now.
                session.receive();
            }
            return true;
        }

        @Override
        public boolean onData(INonBlockingConnection connection) {
            XsocketSession session = (XsocketSession) connection.getAttachment();
            if (session != null) {
                session.receive();
            }
            return true;
        }

        @Override
        public boolean onDisconnect(INonBlockingConnection connection) {
            XsocketSession session = (XsocketSession) connection.getAttachment();
            if (session != null) {
                reportClosed(session);
            }
            return true;
        }
    }

    /** What the connections draw on together; tests read it. */
    MemoryBudget budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "xSocket server " + options.host() + ":" + options.port();
    }
}
