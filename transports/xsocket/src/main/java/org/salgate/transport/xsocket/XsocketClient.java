package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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
import org.xsocket.Execution;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.NonBlockingConnection;

/**
 * The xSocket client: one {@link NonBlockingConnection}, whose handler it is, and whose sends a
 * {@link ConnectionWriter} drains. Its data callbacks run on the dispatcher all xSocket clients in
 * the JVM share and only cut frames; a thread of this client's own hands the messages to the
 * {@link ClientHandler} in arrival order, then the close, so a handler that blocks holds up its
 * own connection only. Once {@link #READ_AHEAD_BYTES} wait for it the connection stops receiving,
 * and resumes when half of them are delivered: a client whose handler blocks stops reading, as a
 * slow client should look to the agent.
 *
 * <p>Why not stop receiving for each callback: xSocket applies a suspend and a resume as tasks on
 * its dispatcher, and a resume reads at once. With every connection's callbacks doing both, the
 * task queue never empties, the dispatcher never gets back to its selector, and a connection the
 * last read found empty is not read again: a hundred clients streaming 20 KB readings left most
 * "stop stream" answers unread for over 30 s. Receiving is suspended and resumed under one lock,
 * with a flag, because xSocket applies both in call order: the last decision taken holds.
 */
@Execution(Execution.NONTHREADED)
final class XsocketClient implements TransportClient, IDataHandler, IDisconnectHandler {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketClient.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
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
    /** Completed once the close is reported. */
    private final CompletableFuture<Void> reported = new CompletableFuture<>();
    /** Delivers messages and the close in order, on one thread at a time, which ends when idle. */
    private final ThreadPoolExecutor delivery = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), this::deliveryThread);
    private final AtomicReference<ClientHandler> handler = new AtomicReference<>();
    /** Guards what follows, and cutting frames; xSocket may call back on the delivery thread too. */
    private final Object flow = new Object();
    /** Bytes of messages cut and not yet delivered, and whether receiving is suspended for them. */
    private long undelivered;
    private boolean suspended;
    private volatile Thread deliveryThread;
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
     * delivered, if any: from inside the handler as it returns, else within a grace period.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || writer == null) {
            return;
        }
        writer.close();
        delivery.execute(this::reportClosed);
        if (Thread.currentThread() == deliveryThread) {
            return;
        }
        try {
            reported.get(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the handler still holds the delivery thread; the close is reported when it returns
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
            synchronized (flow) {
                frames.release();
            }
            try {
                handler.get().closed(failure);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            } finally {
                reported.complete(null);
            }
        }
    }

    @Override
    public boolean onData(INonBlockingConnection c) {
        cutWhatArrived(c);
        return true;
    }

    /**
     * The frames sent before the agent closed come first: what xSocket read before the end may
     * wait in its read buffer, not yet handed to a data callback while receiving was suspended.
     */
    @Override
    public boolean onDisconnect(INonBlockingConnection c) {
        handshake.completeExceptionally(new IOException("the connection was closed by the agent"));
        cutWhatArrived(c);
        delivery.execute(this::reportClosed);
        return true;
    }

    /** On the dispatcher: cuts the frames xSocket has read and queues them for the delivery thread. */
    private void cutWhatArrived(INonBlockingConnection c) {
        synchronized (flow) {
            if (closeReported.get()) {
                return;
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
                    if (!suspended && undelivered >= READ_AHEAD_BYTES) {
                        suspended = true;
                        c.suspendReceiving();
                    }
                    delivery.execute(() -> deliver(cut, bytes, c));
                }
            } catch (CodecException | IOException e) {
                closeNow(e);
            }
        }
    }

    /** On the delivery thread: hands one message to the handler, and resumes receiving once half the read-ahead is taken. */
    private void deliver(Message message, int bytes, INonBlockingConnection c) {
        if (!closed.get()) {
            try {
                handler.get().messageReceived(message);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on a message", e);
            }
        }
        synchronized (flow) {
            undelivered -= bytes;
            if (suspended && undelivered <= READ_AHEAD_BYTES / 2 && c.isOpen()) {
                suspended = false;
                try {
                    c.resumeReceiving();
                } catch (IOException e) {
                    LOG.debug("resuming reads from {}: {}", peer, e.toString());
                }
            }
        }
    }

    private Thread deliveryThread(Runnable r) {
        Thread t = new Thread(r, "salgate-xsocket-client " + peer);
        t.setDaemon(true);
        deliveryThread = t;
        return t;
    }
}
