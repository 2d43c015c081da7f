package org.salgate.transport.grpc;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.transport.grpc.proto.SalSessionGrpc;
import org.salgate.transport.netty.EventLoops;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.netty.TurnTakingEventLoop;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the {@code SalSession} service: one channel with its own I/O thread, one session stream
 * on it. The agent's frames reach the {@link ClientHandler} in order, one at a time; a handler that
 * blocks holds this connection only, and gRPC flow control then stops the agent pushing to it.
 * Requests wait in the connection's {@link OutboundQueue} and go to gRPC while the stream is ready.
 *
 * <p>The channel runs on the netty transport's client event loop where the I/O mechanism allows
 * (epoll, NIO: a {@link TurnTakingEventLoop}): a caller that finds it free hands its request to gRPC
 * and writes it on its own thread, and a caller waiting for its answer runs the loop and reads the
 * answer itself ({@link #readWhileWaiting}), with gRPC's callbacks run where they are read (the
 * direct executor). Frames reach the handler through the loop's in-order deliveries, so a caller
 * whose answer is in leaves what came after it to the connection's own thread.
 */
final class GrpcTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(GrpcTransportClient.class);
    /** How long a closing client waits for its channel, then for its I/O thread, to stop. */
    private static final long SHUTDOWN_WAIT_SECONDS = 5;
    /** How long a closing client waits for the agent to end the session it half-closed. */
    private static final long GOODBYE_WAIT_MILLIS = 2_000;

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean reported = new AtomicBoolean();
    /** Completed once the session has ended, however it ended. */
    private final CompletableFuture<Void> sessionEnded = new CompletableFuture<>();
    /** The thread calling the handler, if any: a close made there cannot wait for what gRPC delivers next. */
    private volatile Thread inHandler;
    private EventLoopGroup group;
    /** The connection's event loop if callers may run it, else null. */
    private volatile TurnTakingEventLoop callersLoop;
    /** Whether gRPC's callbacks run where they are read (the direct executor), not on its pool. */
    private volatile boolean callbacksOnLoop;
    private ManagedChannel channel;
    private volatile ClientCallStreamObserver<EncodedFrame> call;
    private volatile ClientHandler handler;
    private volatile boolean closing;
    private volatile boolean ended;

    GrpcTransportClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, this::wake);
    }

    @Override
    public synchronized void connect(ClientHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (closing) {
            throw new IOException("this client is closed; create a new one to connect again");
        }
        if (channel != null) {
            throw new IllegalStateException("this client is connected already");
        }
        this.handler = handler;
        callbacksOnLoop = GrpcTransportProvider.directExecutor(options.properties());
        NettyIo io = EventLoops.current();
        group = EventLoops.createClient(io, "salgate-grpc-client");
        callersLoop = group instanceof TurnTakingEventLoop loop ? loop : null;
        NettyChannelBuilder builder = (options.tls() == null ? NettyChannelBuilder.forAddress(options.host(), options.port())
                        : NettyChannelBuilder.forAddress(options.host(), options.port(), credentials(options.tls())))
                .eventLoopGroup(group)
                .channelType(io.socketChannel())
                .maxInboundMessageSize(options.maxFrameBytes())
                .flowControlWindow(GrpcTransportServer.FLOW_CONTROL_WINDOW_BYTES)
                // The session is one long stream, never to be replayed by gRPC on a stream of its own: a
                // lost connection ends it and the handler hears so. Without retries gRPC also keeps no copy
                // of what goes out before the agent's first answer, and hands each frame that comes in to
                // the call without a queue of its own in between.
                .disableRetry();
        if (options.tls() == null) {
            builder.usePlaintext();
        }
        if (callbacksOnLoop) {
            // Safe: this channel has its own I/O thread, so a handler that blocks holds this connection only.
            builder.directExecutor();
        }
        channel = builder.build();
        try {
            awaitReady();
        } catch (IOException e) {
            shutdown();
            throw e;
        }
        SalSessionGrpc.newStub(channel).session(new Responses());
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + options.connectTimeout().toNanos();
        ConnectivityState state = channel.getState(true);
        while (state != ConnectivityState.READY) {
            if (state == ConnectivityState.TRANSIENT_FAILURE || state == ConnectivityState.SHUTDOWN) {
                throw connectFailure(state);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IOException("cannot connect to " + target() + ": timed out after "
                        + options.connectTimeout().toMillis() + " ms");
            }
            CountDownLatch changed = new CountDownLatch(1);
            channel.notifyWhenStateChanged(state, changed::countDown);
            try {
                changed.await(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while connecting to " + target(), e);
            }
            state = channel.getState(true);
        }
    }

    /**
     * TLS trusting as the config says, through gRPC's own TLS (TLS 1.3 and 1.2). gRPC checks that
     * the certificate names the host dialled; a pinned config's trust manager decides alone.
     */
    private static ChannelCredentials credentials(TlsConfig tls) {
        return TlsChannelCredentials.newBuilder().trustManager(tls.trustManager()).build();
    }

    /**
     * Why the channel failed to connect. The channel's state does not carry the cause; a call
     * started on a failed channel fails at once (it never reaches the agent) with the status of
     * the last connection attempt, whose cause is the I/O or TLS error.
     */
    private IOException connectFailure(ConnectivityState state) {
        Status status = lastConnectionStatus();
        Throwable cause = status == null ? null : status.asException();
        if (options.tls() != null) {
            return new IOException(options.tls().describeFailure(target(), cause != null ? cause
                    : new IOException("the channel is in state " + state)), cause);
        }
        String why = status == null ? state.toString() : status.getCode() + ": " + status.getDescription();
        return new IOException("cannot connect to " + target() + " (" + why + "); check that an agent listens there"
                + " with the grpc transport, and whether it runs with TLS (then connect with --tls, --tls-ca or"
                + " --tls-pin)", cause);
    }

    private Status lastConnectionStatus() {
        CompletableFuture<Status> closed = new CompletableFuture<>();
        ClientCall<EncodedFrame, EncodedFrame> probe = channel.newCall(SalSessionGrpc.getSessionMethod(),
                CallOptions.DEFAULT.withDeadlineAfter(1, TimeUnit.SECONDS));
        probe.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(status);
            }
        }, new Metadata());
        try {
            return closed.get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            probe.cancel("interrupted", e);
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            probe.cancel("no status in time", null);
            return null;
        }
    }

    @Override
    public void send(Message message) throws IOException {
        ClientCallStreamObserver<EncodedFrame> c = call;
        if (c == null || closing || ended) {
            throw new IOException("the connection to " + target() + " is closed");
        }
        queue.offerRequest(codec.encode(message), target());
    }

    /**
     * The queue's wake: drains on this thread if the connection's event loop is free (gRPC's write
     * and flush then happen here too), else on the loop.
     */
    private void wake() {
        TurnTakingEventLoop loop = callersLoop;
        if (loop == null) {
            drain();
            return;
        }
        try {
            loop.runNowOrExecute(this::drain);
        } catch (RejectedExecutionException e) {
            queue.discard(); // the event loop has stopped, and the channel with it
        }
    }

    /** On epoll and NIO, the waiting caller runs the connection's event loop itself when it is free. */
    @Override
    public void readWhileWaiting(Future<?> answer, long deadlineNanos) {
        TurnTakingEventLoop loop = callersLoop;
        if (loop != null) {
            loop.runUntilDone(answer, deadlineNanos);
        }
    }

    /**
     * Runs a delivery to the handler in order with the others. With the direct executor: through
     * the loop's in-order deliveries on the loop, and queued to the loop from elsewhere (gRPC ends a
     * call it cancels on the cancelling thread). On gRPC's pool, whose executor keeps the order, or
     * where there is no such loop or it has stopped: at once.
     */
    private void deliver(Runnable handlerCall) {
        Runnable delivery = () -> {
            Thread outer = inHandler;
            inHandler = Thread.currentThread();
            try {
                handlerCall.run();
            } finally {
                inHandler = outer;
            }
        };
        TurnTakingEventLoop loop = callersLoop;
        if (loop != null && callbacksOnLoop) {
            if (loop.inEventLoop()) {
                loop.deliverInOrder(delivery);
                return;
            }
            try {
                loop.execute(() -> loop.deliverInOrder(delivery));
                return;
            } catch (RejectedExecutionException e) {
                // stopped: nothing is left to keep this one behind
            }
        }
        delivery.run();
    }

    /** Hands waiting requests to the stream while it is ready; its on-ready handler calls this again. */
    private void drain() {
        ClientCallStreamObserver<EncodedFrame> c = call;
        if (c == null) {
            return;
        }
        StreamWriter.drain(queue, c, c, () -> closing || ended, () -> { });
    }

    @Override
    public boolean isOpen() {
        return call != null && !closing && !ended;
    }

    @Override
    public void close() {
        ClientCallStreamObserver<EncodedFrame> c;
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
            c = call;
        }
        if (c != null && !ended) {
            sayGoodbye(c);
        }
        if (handler != null && c == null) {
            report(null);
        }
        shutdown();
    }

    /**
     * Ends the session as the agent hears a client leave: half-closes the stream, waits (up to
     * {@link #GOODBYE_WAIT_MILLIS}, and neither on the connection's own thread, which must read the
     * agent's end, nor inside the handler, after which gRPC delivers it) for the agent to complete
     * it, and cancels it if the agent has not. A cancel sent as the connection closed raced the
     * connection's end: the agent could still have the session open when its next write on the
     * connection met the closed socket's reset, and it then ended the session as an I/O error. What
     * the agent sends meanwhile is read and not delivered: the client is closed.
     */
    private void sayGoodbye(ClientCallStreamObserver<EncodedFrame> c) {
        try {
            synchronized (c) {
                c.onCompleted();
            }
        } catch (IllegalStateException e) {
            LOG.debug("the session to {} had ended already: {}", target(), e.toString());
        }
        EventLoopGroup g = group;
        if (g != null && !g.next().inEventLoop() && Thread.currentThread() != inHandler) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GOODBYE_WAIT_MILLIS);
            readWhileWaiting(sessionEnded, deadline);
            try {
                sessionEnded.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // not ended in time: cancelled below
            }
        }
        if (!ended) {
            synchronized (c) {
                c.cancel("the client closed the connection", null);
            }
        }
    }

    /**
     * Stops the channel, then its I/O thread once the channel has terminated (the channel still runs
     * tasks on it while it stops); the waiting happens off that thread, which may be the caller.
     */
    private void shutdown() {
        ManagedChannel ch = channel;
        EventLoopGroup g = group;
        if (ch != null) {
            ch.shutdownNow();
        }
        if (g != null && !g.isShuttingDown()) {
            CompletableFuture.runAsync(() -> {
                try {
                    if (ch != null) {
                        ch.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    g.shutdownGracefully(0, SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
                }
            });
        }
    }

    private void report(Throwable cause) {
        ended = true;
        sessionEnded.complete(null);
        queue.discard();
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        deliver(() -> {
            try {
                handler.closed(cause);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            }
        });
    }

    private String target() {
        return options.host() + ":" + options.port();
    }

    /** The agent's side of the session stream. */
    private final class Responses implements ClientResponseObserver<EncodedFrame, EncodedFrame> {

        @Override
        public void beforeStart(ClientCallStreamObserver<EncodedFrame> requests) {
            requests.setOnReadyHandler(GrpcTransportClient.this::drain);
            call = requests;
        }

        @Override
        public void onNext(EncodedFrame frame) {
            if (ended || closing) {
                return;
            }
            Message message;
            try {
                message = codec.decode(frame.getFrame().toByteArray());
            } catch (CodecException e) {
                LOG.debug("closing the connection to {}: {}", target(), e.toString());
                ended = true;
                call.cancel("malformed frame from the agent", e);
                report(e);
                shutdown();
                return;
            }
            deliver(() -> {
                try {
                    handler.messageReceived(message);
                } catch (RuntimeException e) {
                    LOG.warn("the client handler failed on a message", e);
                }
            });
        }

        @Override
        public void onError(Throwable t) {
            report(closing && Status.fromThrowable(t).getCode() == Status.Code.CANCELLED ? null : t);
            shutdown();
        }

        @Override
        public void onCompleted() {
            report(null);
            shutdown();
        }
    }
}
