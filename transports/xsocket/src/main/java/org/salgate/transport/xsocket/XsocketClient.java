package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.NonBlockingConnection;

/**
 * The xSocket client: one {@link NonBlockingConnection}, whose handler it is, and whose sends a
 * {@link ConnectionWriter} drains. Its data callbacks run on the dispatcher all xSocket clients in
 * the JVM share and only cut frames; a thread of this client's own hands the messages, then the
 * close, to the {@link ClientHandler} in order, so a handler that blocks holds up its own
 * connection only. With {@link #READ_AHEAD_BYTES} undelivered the connection stops receiving until
 * half are delivered: a client whose handler blocks stops reading, as a slow client should look.
 *
 * <p>Not for each callback: xSocket runs a suspend and a resume as tasks on its dispatcher, and a
 * resume reads at once. With every connection's callbacks doing both, the tasks never ran out,
 * the dispatcher never got back to its selector, and a connection the last read found empty was
 * not read again: at a hundred clients streaming 20 KB readings most "stop stream" answers never
 * came. Both are decided under one lock, as xSocket applies them in call order.
 */
@Execution(Execution.NONTHREADED)
final class XsocketClient implements TransportClient, IDataHandler, IDisconnectHandler {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketClient.class);
    static final int READ_AHEAD_BYTES = 256 * 1024;

    private final ClientOptions options;
    private final String peer;
    private final ConnectionCodec codec;
    private final FrameReader frames;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    /** Completed when the TLS handshake ends, or failed when the connection closes before. */
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();
    /** Delivers messages and the close in order, on one thread at a time, which ends when idle. */
    private final ThreadPoolExecutor delivery = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "salgate-xsocket-client");
                t.setDaemon(true);
                return t;
            });
    private final AtomicReference<ClientHandler> handler = new AtomicReference<>();
    /** Guards what follows, and cutting frames; xSocket may call back on the delivery thread too. */
    private final Object flow = new Object();
    /** Bytes of messages cut and not yet delivered. */
    private long undelivered;
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
     * Closes once what was sent is written; the handler gets no message after this, and the close
     * once the message being delivered, if any, is done.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && writer != null) {
            writer.close();
            delivery.execute(this::reportClosed);
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

    /** Tells the handler, once, that the connection closed; on the delivery thread. */
    private void reportClosed() {
        closed.set(true);
        if (writer != null && closeReported.compareAndSet(false, true)) { // else connect fails instead
            frames.release(); // may be called from any thread
            HandlerCalls.run(() -> handler.get().closed(failure), "the close", peer);
        }
    }

    /**
     * The frames sent before the agent closed come first: what xSocket read before the end may
     * wait in its read buffer, not yet handed to a data callback while receiving was suspended.
     */
    @Override
    public boolean onDisconnect(INonBlockingConnection c) {
        handshake.completeExceptionally(new IOException("the connection was closed by the agent"));
        onData(c);
        delivery.execute(this::reportClosed);
        return true;
    }

    /** On the dispatcher: cuts the frames xSocket has read and queues them for the delivery thread. */
    @Override
    public boolean onData(INonBlockingConnection c) {
        synchronized (flow) {
            if (closeReported.get()) {
                return true;
            }
            try {
                XsocketServer.readInto(c, frames);
                int buffered = frames.buffered();
                Message message;
                while ((message = frames.next()) != null) {
                    Message cut = message;
                    int bytes = buffered - frames.buffered();
                    buffered -= bytes;
                    undelivered += bytes;
                    if (undelivered >= READ_AHEAD_BYTES && !c.isReceivingSuspended()) {
                        c.suspendReceiving();
                    }
                    delivery.execute(() -> deliver(cut, bytes, c));
                }
            } catch (CodecException | IOException e) {
                closeNow(e);
            }
        }
        return true;
    }

    /** On the delivery thread: hands one message to the handler, and resumes receiving once half the read-ahead is taken. */
    private void deliver(Message message, int bytes, INonBlockingConnection c) {
        if (!closed.get()) {
            HandlerCalls.run(() -> handler.get().messageReceived(message), "a message", peer);
        }
        synchronized (flow) {
            undelivered -= bytes;
            if (undelivered <= READ_AHEAD_BYTES / 2 && c.isReceivingSuspended() && c.isOpen()) {
                try {
                    c.resumeReceiving();
                } catch (IOException e) {
                    LOG.debug("resuming reads from {}: {}", peer, e.toString());
                }
            }
        }
    }
}
