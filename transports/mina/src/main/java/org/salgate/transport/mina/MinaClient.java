package org.salgate.transport.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.RuntimeIoException;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSocketConnector;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/**
 * The MINA client: its own {@link NioSocketConnector} with one processor thread, on which the
 * {@link ClientHandler} runs; it is the connector's handler. A handler that blocks stops this
 * client's reading and no one else's.
 */
final class MinaClient extends FrameHandler implements TransportClient {

    private final ClientOptions options;
    private final String target;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private ClientHandler handler;
    private IoThreads threads;
    private NioSocketConnector connector;
    private volatile IoSession session;
    private volatile IoWriter writer;
    private volatile Throwable failure;
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();

    MinaClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.target = options.host() + ":" + options.port();
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, () -> writer.writeNext());
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (!connecting.compareAndSet(false, true)) {
            throw new IllegalStateException("this MINA client was already connected; create a new one");
        }
        this.handler = handler;
        long timeoutMillis = Math.max(1, options.connectTimeout().toMillis());
        threads = new IoThreads("salgate-mina-client", 1);
        connector = new NioSocketConnector(threads.pool, threads.processors);
        connector.setConnectTimeoutMillis(timeoutMillis);
        connector.getSessionConfig().setTcpNoDelay(true);
        addTls(connector.getFilterChain(), options.tls(), options.host(), options.port(), handshake);
        connector.setHandler(this);
        IoSession connected;
        try {
            ConnectFuture future = connector.connect(new InetSocketAddress(options.host(), options.port()));
            if (!future.awaitUninterruptibly().isConnected()) {
                Throwable cause = future.getException();
                throw new IOException("cannot connect to " + target + ": "
                        + (cause == null ? "connection failed" : cause.getMessage()), cause);
            }
            connected = future.getSession();
            awaitHandshake(timeoutMillis);
        } catch (IOException | RuntimeIoException | IllegalArgumentException e) {
            threads.release(connector); // closes the session, if any
            throw e instanceof IOException io ? io
                    : new IOException("cannot connect to " + target + ": " + e.getMessage(), e);
        }
        session = connected;
        if (closed.get()) {
            connected.closeNow();
        }
    }

    /** Waits for the handshake, with TLS; throws saying why it failed or that it took too long. */
    private void awaitHandshake(long timeoutMillis) throws IOException {
        try {
            if (options.tls() != null) {
                handshake.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).join();
            }
        } catch (CompletionException e) {
            throw new IOException(e.getCause() instanceof TimeoutException
                    ? "TLS handshake with " + target + " did not finish within " + timeoutMillis
                            + " ms; check that the agent runs with TLS"
                    : options.tls().describeFailure(target, e.getCause()), e.getCause());
        }
    }

    @Override
    public void send(Message message) throws IOException {
        if (!isOpen()) {
            throw new IOException("the connection to " + target + " is closed");
        }
        queue.offerRequest(codec.encode(message), target);
    }

    @Override
    public boolean isOpen() {
        IoSession s = session;
        return s != null && s.isConnected() && !s.isClosing() && !closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && session != null) {
            session.closeNow();
            threads.release(connector);
        }
    }

    @Override
    public void sessionCreated(IoSession io) {
        attach(io, new FrameReader(codec, options.maxFrameBytes()));
        writer = new IoWriter(io, queue, Runnable::run);
    }

    @Override
    void deliver(IoSession io, Message message) {
        handler.messageReceived(message);
    }

    @Override
    public void messageSent(IoSession io, Object message) {
        writer.onSent(message);
    }

    @Override
    void failed(IoSession io, Throwable f) {
        if (failure == null) {
            failure = f;
        }
    }

    @Override
    void closed(IoSession io) {
        closed.set(true);
        queue.discard();
        handshake.completeExceptionally(new IOException("the connection closed during the TLS handshake"));
        try {
            handler.closed(failure);
        } finally {
            threads.release(connector);
        }
    }
}
