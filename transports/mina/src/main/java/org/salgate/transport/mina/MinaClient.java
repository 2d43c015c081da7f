package org.salgate.transport.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.mina.core.RuntimeIoException;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketConnector;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MINA client: its own {@link NioSocketConnector} with one processor thread, on which the
 * {@link ClientHandler} runs. A handler that blocks stops this client's reading and no one else's.
 * The processor is a {@link CallerTurnProcessor}: a sender writes its request, and a waiting caller
 * reads its answer, on its own thread, over TLS as on a plain socket.
 */
final class MinaClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(MinaClient.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
    /** How long a close waits for the processor's loop to leave before disposing it anyway. */
    private static final long LOOP_LEAVES_MILLIS = 1_000;

    private final ClientOptions options;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private ExecutorService threads;
    /** Runs the processor's loop on {@link #threads}, and disposes the processor once it has left. */
    private ProcessorLoops loops;
    /** The processor, whose senders write and whose waiting callers read on their own threads. */
    private volatile CallerTurnProcessor callerTurns;
    private NioSocketConnector connector;
    private volatile IoSession session;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private volatile IoWriter writer;
    private volatile Throwable failure;
    private volatile Consumer<Message> delivered;

    MinaClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, () -> writer.writeNext());
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        delivered = handler::messageReceived;
        if (!connecting.compareAndSet(false, true)) {
            throw new IllegalStateException("this MINA client was already connected; create a new one");
        }
        threads = IoThreads.newPool("salgate-mina-client", 4); // connector and processor, each briefly twice
        loops = new ProcessorLoops(threads);
        callerTurns = new CallerTurnProcessor(loops, SelectorProvider.provider(), options.tls() != null);
        connector = new NioSocketConnector(threads, callerTurns);
        connector.setConnectTimeoutMillis(Math.max(1, options.connectTimeout().toMillis()));
        connector.getSessionConfig().setTcpNoDelay(true);
        TlsFilters.addClient(connector.getFilterChain(), options.tls(), options.host(), options.port());
        connector.setHandler(new Handler(handler));

        String target = options.host() + ":" + options.port();
        ConnectFuture future;
        try {
            future = connector.connect(new InetSocketAddress(options.host(), options.port()));
            future.awaitUninterruptibly();
        } catch (RuntimeIoException | IllegalArgumentException e) {
            releaseNow();
            throw new IOException("cannot connect to " + target + ": " + e.getMessage(), e);
        }
        if (!future.isConnected()) {
            releaseNow();
            Throwable cause = future.getException();
            throw new IOException("cannot connect to " + target + ": "
                    + (cause == null ? "connection failed" : cause.getMessage()), cause);
        }
        try {
            TlsFilters.awaitHandshake(future.getSession(), options.tls(), target,
                    Math.max(1, options.connectTimeout().toMillis()));
        } catch (IOException e) {
            future.getSession().closeNow();
            releaseNow();
            throw e;
        }
        session = future.getSession();
        if (closed.get()) {
            session.closeNow();
        }
    }

    @Override
    public void send(Message message) throws IOException {
        IoSession s = session;
        if (s == null || !s.isConnected() || s.isClosing() || closed.get()) {
            throw closedConnection();
        }
        queue.offerRequest(codec.encode(message), options.host() + ":" + options.port());
    }

    /** The processor, whose callers do their own I/O. */
    CallerTurnProcessor callerTurns() {
        return callerTurns;
    }

    /** The waiting caller reads its own answer when the socket is free. */
    @Override
    public void readWhileWaiting(Future<?> answer, long deadlineNanos) {
        IoSession s = session;
        if (s != null) {
            callerTurns.readWhileWaiting(answer, deadlineNanos, IoReader.reader(s), delivered);
        }
    }

    private IOException closedConnection() {
        return new IOException("the connection to " + options.host() + ":" + options.port() + " is closed");
    }

    @Override
    public boolean isOpen() {
        IoSession s = session;
        return s != null && s.isConnected() && !s.isClosing() && !closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        IoSession s = session;
        if (s != null) {
            s.closeNow();
            if (!IoThreads.onIoThread()) {
                s.getCloseFuture().awaitUninterruptibly(CLOSE_GRACE_MILLIS);
            }
        }
        release();
    }

    /** Stops the connector and its threads: here, or on a fresh thread when called from one of them. */
    private void release() {
        if (IoThreads.onIoThread()) {
            Thread t = new Thread(this::releaseNow, "salgate-mina-client-release");
            t.setDaemon(true);
            t.start();
        } else {
            releaseNow();
        }
    }

    private void releaseNow() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        connector.dispose(false);
        loops.disposeOnceLeft(callerTurns, LOOP_LEAVES_MILLIS);
        threads.shutdown();
        try {
            threads.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Bridges MINA's events to the {@link ClientHandler}, on the client's processor thread. */
    private final class Handler extends IoHandlerAdapter {
        private final ClientHandler handler;

        Handler(ClientHandler handler) {
            this.handler = handler;
        }

        @Override
        public void sessionCreated(IoSession io) {
            IoReader.attach(io, codec, options.maxFrameBytes());
            writer = new IoWriter(io, queue, Runnable::run, OutboundQueue.BATCH_BYTES);
            callerTurns.writesOf(writer);
        }

        @Override
        public void messageSent(IoSession io, Object message) {
            writer.onSent(message);
        }

        @Override
        public void messageReceived(IoSession io, Object bytes) throws CodecException {
            if (callerTurns.readByCallerHere()) {
                IoReader.append(io, bytes); // what a caller's read decrypted: the caller delivers it
            } else {
                IoReader.received(io, bytes, handler::messageReceived);
            }
        }

        @Override
        public void exceptionCaught(IoSession io, Throwable cause) {
            Throwable f = Failures.unwrap(cause);
            if (failure == null) {
                failure = f;
            }
            if (Failures.isExpected(f)) {
                LOG.debug("closing the connection to {}: {}", io.getRemoteAddress(), f.toString());
            } else {
                LOG.warn("closing the connection to {} after an unexpected error", io.getRemoteAddress(), f);
            }
            io.closeNow();
        }

        @Override
        public void sessionClosed(IoSession io) {
            closed.set(true);
            queue.discard();
            if (closeReported.compareAndSet(false, true)) {
                callerTurns.closing(); // after the messages a caller delivers
                try {
                    handler.closed(failure);
                } finally {
                    callerTurns.closedReported();
                    release();
                }
            }
        }
    }
}
