package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.FrameReader;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.OpenSessions;
import org.salgate.transport.Ports;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
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

/**
 * The xSocket server: a {@link Server} whose connections are {@link XsocketSession}s, and which is
 * its handler. The handler is NONTHREADED, so a connection's callbacks run on its dispatcher
 * thread, or on the server's worker pool once xSocket has queued them, one at a time and in order.
 */
@Execution(Execution.NONTHREADED)
final class XsocketServer extends SingleUseServer implements IConnectHandler, IDataHandler, IDisconnectHandler {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketServer.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
    private static final int START_TIMEOUT_SECONDS = 10;
    /** xSocket 2.8.15's handshake loop stalls on TLS 1.3 (the client never sends its Finished). */
    static final List<String> TLS_PROTOCOLS = List.of("TLSv1.2");

    /**
     * Paces xSocket's accept loop, which retries a failed accept at once and logs a warning each
     * time, so running out of descriptors made it spin and flood the log. A filter on its logger
     * hands the failure to the {@link AcceptBackoff} of the server whose accept thread (xSocket's
     * {@code xServer:<port>}) logs it, which logs the run once and pauses the thread.
     */
    private static final Map<String, AcceptBackoff> ACCEPT_BACKOFFS = new ConcurrentHashMap<>();
    private static final String ACCEPT_FAILED = "error occured while accepting connection";
    // Held so the configured logger is not collected and its filter lost.
    private static final java.util.logging.Logger ACCEPTOR = java.util.logging.Logger.getLogger(
            "org.xsocket.connection.IoAcceptor");

    static {
        ACCEPTOR.setFilter(record -> {
            String message = record.getMessage();
            AcceptBackoff backoff = ACCEPT_BACKOFFS.get(Thread.currentThread().getName());
            if (message == null || !message.startsWith(ACCEPT_FAILED) || backoff == null) {
                return true;
            }
            backoff.failed(new IOException(message.substring(ACCEPT_FAILED.length()).replaceFirst("^:\\s*", "")));
            return false;
        });
    }

    private static final AtomicLong IDS = new AtomicLong();

    private final ServerOptions options;
    private final OpenSessions<XsocketSession> sessions = new OpenSessions<>();
    private final MemoryBudget budget;
    private final AcceptBackoff acceptBackoff;
    private volatile ServerHandler handler;

    XsocketServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
        this.acceptBackoff = new AcceptBackoff(toString());
    }

    /** What the connections draw on together. */
    MemoryBudget budget() {
        return budget;
    }

    @Override
    protected Bound bind(ServerHandler serverHandler) throws IOException {
        this.handler = serverHandler;
        // xSocket's own worker pool, which its close shuts down: twice the I/O threads, at least 4;
        // it queues a connection's callbacks there only while another of its callbacks runs
        int threads = Math.max(4, 2 * (options.ioThreads() > 0 ? options.ioThreads()
                : Runtime.getRuntime().availableProcessors()));
        TlsConfig tls = options.tls();
        Server server = null;
        try {
            // xSocket's default backlog (the JDK's 50) drops the SYNs of a burst of connections,
            // which then wait 1, 3, 7... s for their retries
            server = new Server(InetAddress.getByName(options.host()), options.port(),
                    Map.of(IConnection.SO_REUSEADDR, Boolean.TRUE), this,
                    tls == null ? null : tls.engineContext(null, 0, TLS_PROTOCOLS), tls != null,
                    Ports.ACCEPT_BACKLOG, threads, threads);
            server.setFlushmode(IConnection.FlushMode.ASYNC); // and autoflush, xSocket's default
            server.setStartUpLogMessage("");
            ConnectionUtils.start(server, START_TIMEOUT_SECONDS);
        } catch (IOException e) {
            if (server != null) {
                server.close();
            }
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage(), e);
        }
        InetSocketAddress address = new InetSocketAddress(server.getLocalAddress(), server.getLocalPort());
        String acceptThread = "xServer:" + address.getPort();
        ACCEPT_BACKOFFS.put(acceptThread, acceptBackoff);
        Server started = server;
        return new Bound(address, () -> {
            started.close(); // ends the connections, dropping what a peer that stopped reading did not take
            ACCEPT_BACKOFFS.remove(acceptThread);
            sessions.closeAll(CLOSE_GRACE_MILLIS, session -> session.abort(null));
            // xSocket's acceptor closes the listening channel on its own thread, after close() returned.
            Ports.awaitReleased(address.getAddress(), address.getPort(), Duration.ofMillis(CLOSE_GRACE_MILLIS));
        });
    }

    @Override
    public boolean onConnect(INonBlockingConnection connection) throws IOException {
        acceptBackoff.accepted();
        connection.setOption(IConnection.TCP_NODELAY, Boolean.TRUE);
        XsocketSession session = new XsocketSession(connection);
        connection.setAttachment(session);
        sessions.add(session);
        handler.sessionOpened(session);
        // Over TLS xSocket reports the connection from the thread that finished the handshake, after
        // it sent its last record: the client's first frame may have been decrypted on another
        // thread and reported to onData before this session existed, and it is answered first.
        session.receive();
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

    @Override
    public String toString() {
        return "xSocket server " + options.host() + ":" + options.port();
    }

    /** Moves all xSocket has read into {@code reader} at once: a frame cut from its buffer costs time per chunk. */
    static void readInto(INonBlockingConnection connection, FrameReader reader) throws IOException {
        int available = connection.available();
        if (available > 0) {
            for (ByteBuffer chunk : connection.readByteBufferByLength(available)) {
                reader.append(chunk);
            }
        }
    }

    /** A session over an xSocket connection: a {@link ConnectionWriter} writes it, the server's callbacks read it. */
    final class XsocketSession extends QueuedSession {

        /** The xSocket connection; tests in this package set its socket options. */
        final INonBlockingConnection connection;
        private final FrameReader reader;
        private final ConnectionWriter writer;
        private final AtomicBoolean endReported = new AtomicBoolean();
        private volatile boolean open = true;
        private volatile Throwable failure;

        XsocketSession(INonBlockingConnection connection) {
            super(IDS.incrementAndGet(), options, budget);
            this.connection = connection;
            this.reader = frameReader();
            this.writer = new ConnectionWriter(connection, options.tls() != null, queue(), this::abort);
        }

        @Override
        public String remoteAddress() {
            return connection.getRemoteAddress() + ":" + connection.getRemotePort();
        }

        @Override
        public boolean isOpen() {
            return open && connection.isOpen();
        }

        @Override
        protected void startWriting() {
            writer.writeNext();
        }

        /** Closes once what was sent before is written. */
        @Override
        public void close() {
            open = false;
            writer.close();
        }

        @Override
        protected void abort(Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
            open = false;
            writer.closeNow();
            ended();
        }

        /**
         * Hands the whole frames xSocket has read to the handler; called from the data callback, and
         * once from the connect callback, which over TLS may run on another thread at the same time.
         * A malformed or oversize frame closes this session; an HTTP request is answered first.
         */
        synchronized void receive() {
            if (!isOpen()) {
                return;
            }
            try {
                readInto(connection, reader);
                Message message;
                while (isOpen() && (message = reader.next()) != null) {
                    handler.messageReceived(this, message);
                }
            } catch (CodecException | IOException | RuntimeException e) {
                LOG.debug("closing session {}: {}", id(), e.toString());
                if (e instanceof Framing.HttpRequestException) {
                    try {
                        connection.write(ByteBuffer.wrap(Framing.httpBadRequest()));
                    } catch (IOException notAnswered) {
                        LOG.debug("answering the HTTP client of session {} failed: {}", id(), notAnswered.toString());
                    }
                }
                abort(e);
            }
        }

        /** Tells the handler, once, that the session ended, and gives back what it held. */
        void ended() {
            open = false;
            queue().discard();
            sessions.remove(this);
            if (endReported.compareAndSet(false, true)) {
                reader.release();
                handler.sessionClosed(this, failure);
            }
        }
    }
}
