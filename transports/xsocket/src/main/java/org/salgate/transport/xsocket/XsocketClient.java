package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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
 * The xSocket client: one {@link NonBlockingConnection}, whose handler it is, and whose sends a
 * {@link ConnectionWriter} drains. Its data callbacks hand each message to the {@link ClientHandler}
 * in arrival order, then report the close. They are multithreaded, xSocket's default: on its worker
 * pool, one at a time per connection, so a handler that blocks holds up its own connection only, not
 * the dispatcher all xSocket clients in the JVM share; and as a callback stops the connection
 * receiving while it delivers, such a client stops reading, as a slow client should look to the agent.
 */
final class XsocketClient implements TransportClient, IDataHandler, IDisconnectHandler {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketClient.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;

    private final ClientOptions options;
    private final String peer;
    private final ConnectionCodec codec;
    private final FrameReader frames;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    /** Completed when the TLS handshake ends, or failed when the connection closes before. */
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();
    /** Held while the handler is called, so that it sees messages and the close one at a time. */
    private final ReentrantLock delivery = new ReentrantLock();
    private final AtomicReference<ClientHandler> handler = new AtomicReference<>();
    private volatile Throwable failure;
    private volatile ConnectionWriter writer;

    XsocketClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.peer = options.host() + ":" + options.port();
        this.codec = new ConnectionCodec(options.codec());
        this.frames = new FrameReader(codec, options.maxFrameBytes());
        this.queue = OutboundQueue.forClient(options, () -> writer.writeNext());
    }

    /**
     * Connects within the connect timeout; with TLS, turned on once connected. With TLS on from its
     * constructor, xSocket waits for the handshake on its one connector thread until it ends or the
     * server answers with a TLS error: a server without TLS, which closes without answering, would
     * stop every later xSocket connection in the JVM. {@code activateSecuredMode} does not wait, so
     * this waits for the engine to report the end of its handshake, or for the connection to close.
     */
    @Override
    public void connect(ClientHandler clientHandler) throws IOException {
        if (!handler.compareAndSet(null, Objects.requireNonNull(clientHandler, "handler"))) {
            throw new IllegalStateException("this xSocket client was already connected; create a new one");
        }
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, options.connectTimeout().toMillis()));
        TlsConfig tls = options.tls();
        NonBlockingConnection c;
        try {
            c = new NonBlockingConnection(new InetSocketAddress(InetAddress.getByName(options.host()), options.port()),
                    null, this, true, timeoutMillis, Map.of(IConnection.TCP_NODELAY, Boolean.TRUE),
                    tls == null ? null : tls.engineContext(options.host(), options.port(), XsocketServer.TLS_PROTOCOLS,
                            handshake), false);
        } catch (IOException | RuntimeException e) {
            throw new IOException("cannot connect to " + peer + ": " + e.getMessage(), e);
        }
        if (tls != null) {
            try {
                c.activateSecuredMode();
                handshake.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).join();
            } catch (IOException | RuntimeException e) {
                c.closeQuietly();
                Throwable cause = e instanceof CompletionException ? e.getCause() : e;
                throw new IOException(cause instanceof TimeoutException ? "TLS handshake with " + peer
                        + " did not finish within " + timeoutMillis + " ms; check that the agent runs with TLS"
                        : tls.describeFailure(peer, cause), cause);
            }
        }
        c.setFlushmode(IConnection.FlushMode.ASYNC);
        writer = new ConnectionWriter(c, tls != null, queue, this::closeNow);
        if (closed.get()) {
            writer.close();
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

    /** Closes at once, on a failed write or a malformed frame from the agent. */
    private void closeNow(Exception cause) {
        LOG.debug("closing the connection to {}: {}", peer, cause.toString());
        if (failure == null) {
            failure = cause;
        }
        closed.set(true);
        writer.closeNow();
    }

    /** Tells the handler, once, that the connection closed; with {@link #delivery} held. */
    private void reportClosed() {
        closed.set(true);
        if (writer != null && closeReported.compareAndSet(false, true)) { // else connect fails instead
            frames.release();
            try {
                handler.get().closed(failure);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            }
        }
    }

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
        } finally {
            reportClosed();
            delivery.unlock();
        }
        return true;
    }

    private void deliverWhatArrived(INonBlockingConnection c) {
        if (closeReported.get()) {
            return;
        }
        try {
            XsocketServer.readInto(c, frames);
            Message message;
            while (!closed.get() && (message = frames.next()) != null) {
                try {
                    handler.get().messageReceived(message);
                } catch (RuntimeException e) {
                    LOG.warn("the client handler failed on a message", e);
                }
            }
        } catch (CodecException | IOException e) {
            closeNow(e);
        }
    }
}
