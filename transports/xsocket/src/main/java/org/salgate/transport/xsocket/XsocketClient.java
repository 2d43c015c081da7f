package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.NonBlockingConnection;

/**
 * The xSocket client: one {@link NonBlockingConnection}, whose data callbacks cut frames and hand
 * each message to the {@link ClientHandler}, in arrival order, then report the close. The callbacks
 * are multithreaded, xSocket's default: they run on its worker pool, one at a time per connection,
 * so a handler that blocks holds up its own connection only, not the client dispatcher all xSocket
 * clients in the JVM share. A callback stops the connection receiving while it delivers, so a
 * handler that blocks makes this client stop reading, as a slow client should look to the agent.
 * Sends go through the connection's {@link OutboundQueue}, drained by a {@link ConnectionWriter}.
 */
final class XsocketClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketClient.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;

    private final ClientOptions options;
    private final String peer;
    private final ConnectionCodec codec;
    private final FrameReader frames;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    /** Completed when the TLS handshake ends, or failed when the connection closes before. */
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();
    /** Held while the handler is called, so that it sees messages and the close one at a time. */
    private final ReentrantLock delivery = new ReentrantLock();
    private volatile ClientHandler handler;
    private volatile Throwable failure;
    private volatile ConnectionWriter writer;

    XsocketClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.peer = options.host() + ":" + options.port();
        this.codec = new ConnectionCodec(options.codec());
        this.frames = new FrameReader(codec, options.maxFrameBytes());
        this.queue = OutboundQueue.forClient(options, () -> writer.writeNext());
    }

    @Override
    public void connect(ClientHandler clientHandler) throws IOException {
        this.handler = Objects.requireNonNull(clientHandler, "handler");
        if (!connecting.compareAndSet(false, true)) {
            throw new IllegalStateException("this xSocket client was already connected; create a new one");
        }
        NonBlockingConnection c;
        try {
            c = open();
        } catch (IOException | RuntimeException e) {
            String why = String.valueOf(e.getMessage());
            throw new IOException(why.startsWith("TLS handshake") ? why : "cannot connect to " + peer + ": " + why, e);
        }
        c.setFlushmode(IConnection.FlushMode.ASYNC);
        c.setAutoflush(true);
        c.setOption(IConnection.TCP_NODELAY, Boolean.TRUE);
        writer = new ConnectionWriter(c, options.tls() != null, queue, this::writeFailed);
        if (closed.get()) {
            writer.close();
        }
    }

    /**
     * Connects, with TLS when the options have it, within the connect timeout. xSocket's client with
     * TLS turned on in its constructor waits for the handshake on xSocket's one connector thread
     * until it ends or the server answers with a TLS error: a server that closes without answering
     * in TLS (one without TLS) would stop every later xSocket connection in the JVM. So TLS is
     * turned on once connected ({@code activateSecuredMode}, which does not wait), and this waits
     * for the engine to report the end of its handshake, or for the connection to close.
     */
    private NonBlockingConnection open() throws IOException {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, options.connectTimeout().toMillis()));
        InetAddress address = InetAddress.getByName(options.host());
        TlsConfig tls = options.tls();
        if (tls == null) {
            return new NonBlockingConnection(address, options.port(), new Callbacks(), true, timeoutMillis);
        }
        NonBlockingConnection c = new NonBlockingConnection(address, options.port(), new Callbacks(), true,
                timeoutMillis, tls.engineContext(options.host(), options.port(), XsocketServer.TLS_PROTOCOLS,
                handshake), false);
        try {
            c.activateSecuredMode();
            handshake.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return c;
        } catch (TimeoutException e) {
            c.closeQuietly();
            throw new IOException("TLS handshake with " + peer + " did not finish within " + timeoutMillis
                    + " ms; check that the agent runs with TLS", e);
        } catch (ExecutionException e) {
            c.closeQuietly();
            throw new IOException(tls.describeFailure(peer, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            c.closeQuietly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + peer, e);
        } catch (IOException | RuntimeException e) {
            c.closeQuietly();
            throw e;
        }
    }

    @Override
    public void send(Message message) throws IOException {
        if (writer == null || closed.get()) {
            throw new IOException("the connection to " + peer + " is closed");
        }
        queue.offerRequest(codec.encode(message), peer);
    }

    @Override
    public boolean isOpen() {
        return writer != null && !closed.get() && !closeReported.get();
    }

    /**
     * Closes once what was sent is written, and reports the close after the message being
     * delivered, if any: at once from inside the handler, else within a grace period.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || writer == null) {
            return;
        }
        writer.close();
        if (delivery.isHeldByCurrentThread()) {
            return; // inside the handler: the callback reports the close as it ends
        }
        try {
            if (delivery.tryLock(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                try {
                    reportClosed();
                } finally {
                    delivery.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeFailed(IOException e) {
        LOG.debug("writing to {} failed, closing the connection: {}", peer, e.toString());
        if (failure == null) {
            failure = e;
        }
        writer.closeNow();
    }

    /** Tells the handler, once, that the connection closed; with {@link #delivery} held. */
    private void reportClosed() {
        closed.set(true);
        if (writer != null && closeReported.compareAndSet(false, true)) { // else connect fails instead
            frames.release();
            try {
                handler.closed(failure);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            }
        }
    }

    private final class Callbacks implements IDataHandler, IDisconnectHandler {

        @Override
        public boolean onData(INonBlockingConnection c) throws IOException {
            delivery.lock();
            try {
                c.suspendReceiving();
                deliverWhatArrived(c);
            } finally {
                if (closed.get()) {
                    reportClosed();
                } else if (c.isOpen()) {
                    c.resumeReceiving(); // xSocket calls back again at once if it holds more
                }
                delivery.unlock();
            }
            return true;
        }

        /**
         * The frames sent before the agent closed come first: what xSocket read before the end may
         * wait in its read buffer, not yet handed to a data callback while receiving was suspended.
         */
        @Override
        public boolean onDisconnect(INonBlockingConnection c) {
            handshake.completeExceptionally(new IOException("the connection was closed by the agent"));
            delivery.lock();
            try {
                deliverWhatArrived(c);
            } catch (IOException e) {
                LOG.debug("reading what {} sent before closing: {}", peer, e.toString());
            } finally {
                reportClosed();
                delivery.unlock();
            }
            return true;
        }

        private void deliverWhatArrived(INonBlockingConnection c) throws IOException {
            if (closeReported.get()) {
                return;
            }
            try {
                XsocketSession.readInto(c, frames);
                Message message;
                while (!closed.get() && (message = frames.next()) != null) {
                    try {
                        handler.messageReceived(message);
                    } catch (RuntimeException e) {
                        LOG.warn("the client handler failed on a message", e);
                    }
                }
            } catch (CodecException e) {
                LOG.debug("closing the connection to {}: {}", peer, e.getMessage());
                if (failure == null) {
                    failure = e;
                }
                closed.set(true);
                writer.closeNow();
            }
        }
    }
}
