package org.salgate.transport.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.transport.grpc.proto.SalSessionGrpc;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the {@code SalSession} service: one channel with its own I/O thread (on the netty
 * transport's {@link NettyIo}), one session stream on it. Requests wait in the connection's
 * {@link OutboundQueue} and are handed to the stream by the sending thread while gRPC says it is
 * ready; its on-ready handler resumes. The agent's frames reach the {@link ClientHandler} in order,
 * one at a time; a handler that blocks holds this connection only, and gRPC flow control then
 * stops the agent pushing to it.
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
    /** Held while the handler is called: gRPC ends a call it cancels on the cancelling thread. */
    private final Object deliveries = new Object();
    /** The thread calling the handler, if any: a close made there cannot wait for what gRPC delivers next. */
    private volatile Thread inHandler;
    private EventLoopGroup group;
    private ManagedChannel channel;
    private volatile ClientCallStreamObserver<EncodedFrame> call;
    private volatile ClientHandler handler;
    private volatile boolean closing;
    private volatile boolean ended;

    GrpcTransportClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, this::drain);
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
        group = NettyIo.group(1, "salgate-grpc-client", true);
        NettyChannelBuilder builder = (options.tls() == null ? NettyChannelBuilder.forAddress(options.host(), options.port())
                        : NettyChannelBuilder.forAddress(options.host(), options.port(), credentials(options.tls())))
                .eventLoopGroup(group)
                .channelType(NioSocketChannel.class)
                .maxInboundMessageSize(options.maxFrameBytes())
                .flowControlWindow(GrpcTransportServer.FLOW_CONTROL_WINDOW_BYTES)
                // The session is one long stream, never to be replayed by gRPC on a stream of its own: a
                // lost connection ends it and the handler hears so. Without retries gRPC also keeps no copy
                // of what goes out before the agent's first answer.
                .disableRetry();
        if (options.tls() == null) {
            builder.usePlaintext();
        }
        if (GrpcTransportProvider.directExecutor(options.properties())) {
            // Safe: this channel has its own I/O thread, so a handler that blocks holds this connection only.
            builder.directExecutor();
        }
        channel = builder.build();
        Responses responses = new Responses();
        SalSessionGrpc.newStub(channel).session(responses);
        try {
            responses.up.get(options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            ended = true; // here, not only on gRPC's thread, which may not have got that far: isOpen() is false now
            shutdown();
            throw connectFailure(Status.fromThrowable(e.getCause()));
        } catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            ended = true;
            shutdown();
            throw new IOException("cannot connect to " + target() + ": " + (e instanceof TimeoutException
                    ? "timed out after " + options.connectTimeout().toMillis() + " ms" : "interrupted"), e);
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
     * Why the session stream could not start: a call that fails before it reaches the agent fails
     * with the status of the last connection attempt, whose cause is the I/O or TLS error.
     */
    private IOException connectFailure(Status status) {
        Throwable cause = status.getCause() != null ? status.getCause() : status.asException();
        if (options.tls() != null) {
            return new IOException(options.tls().describeFailure(target(), cause), cause);
        }
        return new IOException("cannot connect to " + target() + " (" + status.getCode() + ": " + status.getDescription()
                + "); check that an agent listens there with the grpc transport, and whether it runs with TLS (then"
                + " connect with --tls, --tls-ca or --tls-pin)", cause);
    }

    @Override
    public void send(Message message) throws IOException {
        if (call == null || closing || ended) {
            throw new IOException("the connection to " + target() + " is closed");
        }
        queue.offerRequest(codec.encode(message), target());
    }

    /** Hands waiting requests to the stream while it is ready, on the thread that asks; the on-ready handler calls this again. */
    private void drain() {
        ClientCallStreamObserver<EncodedFrame> c = call;
        if (c != null) {
            StreamWriter.drain(queue, c, c, () -> closing || ended, () -> { });
        }
    }

    /** Calls the handler, one delivery at a time. */
    private void deliver(Runnable handlerCall) {
        synchronized (deliveries) {
            Thread outer = inHandler;
            inHandler = Thread.currentThread();
            try {
                handlerCall.run();
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed", e);
            } finally {
                inHandler = outer;
            }
        }
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
     * agent's end, nor inside the handler) for the agent to complete it, and cancels it if the agent
     * has not. A cancel sent as the connection closed would race the connection's end: the agent
     * could meet the closed socket's reset on its next write and end the session as an I/O error.
     * What the agent sends meanwhile is read and not delivered: the client is closed.
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
            sessionEnded.completeOnTimeout(null, GOODBYE_WAIT_MILLIS, TimeUnit.MILLISECONDS).join();
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
        queue.discard();
        if (reported.compareAndSet(false, true)) {
            deliver(() -> handler.closed(cause));
        }
        sessionEnded.complete(null);
    }

    private String target() {
        return options.host() + ":" + options.port();
    }

    /** The agent's side of the session stream. */
    private final class Responses implements ClientResponseObserver<EncodedFrame, EncodedFrame> {
        /** Completed once the stream is first ready, or failed if it ends before: the connection is up. */
        final CompletableFuture<Void> up = new CompletableFuture<>();

        @Override
        public void beforeStart(ClientCallStreamObserver<EncodedFrame> requests) {
            requests.setOnReadyHandler(() -> {
                up.complete(null);
                drain();
            });
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
            deliver(() -> handler.messageReceived(message));
        }

        @Override
        public void onError(Throwable t) {
            if (up.completeExceptionally(t)) {
                ended = true; // connect throws it
                return;
            }
            report(closing && Status.fromThrowable(t).getCode() == Status.Code.CANCELLED ? null : t);
            shutdown();
        }

        @Override
        public void onCompleted() {
            if (up.completeExceptionally(Status.UNAVAILABLE.withDescription("the agent ended the session at once")
                    .asRuntimeException())) {
                ended = true;
                return;
            }
            report(null);
            shutdown();
        }
    }
}
