package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.OpenSessions;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.xsocket.Execution;
import org.xsocket.connection.ConnectionUtils;
import org.xsocket.connection.IConnectHandler;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.Server;

/**
 * The xSocket server: a {@link Server} whose connections are {@link XsocketSession}s. Its handler
 * is NONTHREADED, so a connection's callbacks run on its dispatcher thread, or on the server's
 * worker pool once xSocket has queued them, one at a time and in order.
 */
final class XsocketServer implements TransportServer {

    private static final long CLOSE_GRACE_MILLIS = 5_000;
    private static final int START_TIMEOUT_MILLIS = 10_000;
    /** xSocket 2.8.15's handshake loop stalls on TLS 1.3 (the client never sends its Finished). */
    static final List<String> TLS_PROTOCOLS = List.of("TLSv1.2");

    private final ServerOptions options;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final OpenSessions<XsocketSession> sessions = new OpenSessions<>();
    private final MemoryBudget budget;
    private final AcceptBackoff acceptBackoff;
    private volatile ServerHandler handler;
    private Server server;
    private volatile InetSocketAddress localAddress;

    XsocketServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
        this.acceptBackoff = new AcceptBackoff(toString());
    }

    ServerOptions options() {
        return options;
    }

    /** What the connections draw on together. */
    MemoryBudget budget() {
        return budget;
    }

    @Override
    public void start(ServerHandler serverHandler) throws IOException {
        this.handler = Objects.requireNonNull(serverHandler, "handler");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("this xSocket server was already started; create a new one");
        }
        // xSocket's own worker pool, which its close shuts down: twice the I/O threads, at least 4;
        // it queues a connection's callbacks there only while another of its callbacks runs
        int threads = Math.max(4, 2 * (options.ioThreads() > 0 ? options.ioThreads()
                : Runtime.getRuntime().availableProcessors()));
        try {
            // xSocket's default backlog (the JDK's 50) drops the SYNs of a burst of connections,
            // which then wait 1, 3, 7... s for their retries
            server = new Server(InetAddress.getByName(options.host()), options.port(),
                    Map.of(IConnection.SO_REUSEADDR, Boolean.TRUE), new ConnectionHandler(),
                    options.tls() == null ? null : options.tls().engineContext(null, 0, TLS_PROTOCOLS), options.tls() != null, Ports.ACCEPT_BACKLOG,
                    threads, threads);
            server.setFlushmode(IConnection.FlushMode.ASYNC);
            server.setAutoflush(true);
            server.setStartUpLogMessage("");
            ConnectionUtils.start(server, START_TIMEOUT_MILLIS);
        } catch (IOException e) {
            if (server != null) {
                server.close();
            }
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage(), e);
        }
        localAddress = new InetSocketAddress(server.getLocalAddress(), server.getLocalPort());
        AcceptFailures.watch(localAddress.getPort(), acceptBackoff);
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /**
     * xSocket's close ends the connections it accepted (a peer that stopped reading loses what was
     * still queued for it); those whose end it has not reported within the grace are closed here.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || server == null) {
            return;
        }
        server.close();
        AcceptFailures.watch(localAddress.getPort(), null);
        sessions.closeAll(CLOSE_GRACE_MILLIS, session -> {
            session.closeConnectionNow();
            session.ended();
        });
        // xSocket's acceptor closes the listening channel on its own thread, after close() returned.
        Ports.awaitReleased(localAddress.getAddress(), localAddress.getPort(), Duration.ofMillis(CLOSE_GRACE_MILLIS));
    }

    void forget(XsocketSession session) {
        sessions.remove(session);
    }

    @Execution(Execution.NONTHREADED)
    private final class ConnectionHandler implements IConnectHandler, IDataHandler, IDisconnectHandler {

        @Override
        public boolean onConnect(INonBlockingConnection connection) throws IOException {
            acceptBackoff.accepted();
            connection.setFlushmode(IConnection.FlushMode.ASYNC);
            connection.setAutoflush(true);
            connection.setOption(IConnection.TCP_NODELAY, Boolean.TRUE);
            XsocketSession session = new XsocketSession(connection, XsocketServer.this, handler);
            connection.setAttachment(session);
            sessions.add(session);
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
            if (connection.getAttachment() instanceof XsocketSession session) {
                session.receive();
            }
            return true;
        }

        @Override
        public boolean onDisconnect(INonBlockingConnection connection) {
            if (connection.getAttachment() instanceof XsocketSession session) {
                session.ended();
            }
            return true;
        }
    }

    @Override
    public String toString() {
        return "xSocket server " + options.host() + ":" + options.port();
    }
}
