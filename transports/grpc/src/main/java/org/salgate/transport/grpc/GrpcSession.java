package org.salgate.transport.grpc;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.transport.grpc.service.CallBudget;
import org.salgate.wire.CodecException;
import org.salgate.wire.Hello;
import org.salgate.transport.MemoryBudget;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session on one {@code SalSession} stream: the client's frames are decoded for the
 * {@link ServerHandler}, the agent's are encoded into the session's {@link OutboundQueue} (its bound,
 * water marks and slow-consumer behaviour are every session's) and drained onto the stream, one
 * message per frame, while gRPC says the stream is ready; its on-ready handler resumes the drain.
 * The handler's calls for this session are made under one lock, so it sees them in order and never
 * at once. Its queue draws on the server's memory budget (an account of the session's own); what
 * gRPC holds of the stream is charged to its connection ({@link CallBudget}).
 */
final class GrpcSession extends QueuedSession implements StreamObserver<EncodedFrame> {

    private static final Logger LOG = LoggerFactory.getLogger(GrpcSession.class);

    /** How long {@link #close()} waits for what was sent to drain before ending the stream regardless. */
    static final long CLOSE_FLUSH_GRACE_MILLIS = 2_000;

    private final String remoteAddress;
    private final String metadataCredentials;
    private final ServerHandler handler;
    private final ServerCallStreamObserver<EncodedFrame> out;
    private final Consumer<GrpcSession> onEnd;
    /** What the stream holds in its connection's memory budget, and why it ended. */
    private final CallBudget callBudget = CallBudget.current();
    private final Object handlerLock = new Object();
    private final Object sendLock = new Object();
    private final AtomicBoolean outboundDone = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    /** Guarded by sendLock: a close waits for the queue to drain. */
    private boolean closing;

    GrpcSession(long id, ServerHandler handler, ServerOptions options, MemoryBudget budget,
                ServerCallStreamObserver<EncodedFrame> out, Consumer<GrpcSession> onEnd) {
        super(id, options, budget);
        this.remoteAddress = callBudget.remoteAddress();
        this.metadataCredentials = callBudget.credentials();
        this.handler = handler;
        this.out = out;
        this.onEnd = onEnd;
        // the frames of a session are held to the limit the agent sets, small until it accepts the hello
        callBudget.admitWhen(this::maxInboundFrameBytes);
        out.setOnReadyHandler(this::drain);
        out.setOnCancelHandler(() -> ended(cancellationCause()));
        out.setOnCloseHandler(() -> ended(null));
    }

    /** Reports the session opened; called once, before any frame is read. */
    void open() {
        synchronized (handlerLock) {
            handler.sessionOpened(this);
        }
    }

    // ------------------------------------------------------------------ inbound (the client's frames)

    @Override
    public void onNext(EncodedFrame frame) {
        synchronized (handlerLock) {
            if (reported.get()) {
                return;
            }
            Message message;
            try {
                message = withMetadataCredentials(codec().decode(frame.getFrame().toByteArray()));
            } catch (CodecException e) {
                fail(e);
                return;
            }
            try {
                handler.messageReceived(this, message);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on a message of {}", this, e);
            } catch (Error e) {
                // out of memory, say: this session ends, and its stream with it
                LOG.warn("closing {} after an error: {}", this, e.toString());
                finishOutbound(Status.INTERNAL.withDescription("the agent failed on this message; the session is closed"));
                ended(e);
            }
        }
    }

    /** A hello without credentials takes the call's {@code authorization: Bearer} token, if it has one. */
    private Message withMetadataCredentials(Message message) {
        if (message instanceof Hello hello && hello.credentials().isEmpty() && !metadataCredentials.isEmpty()) {
            return new Hello(hello.protocolVersion(), hello.codec(), hello.clientName(), metadataCredentials);
        }
        return message;
    }

    /** The client cancelled (it closed, or its connection broke); also reported by the cancel handler. */
    @Override
    public void onError(Throwable t) {
        ended(null);
    }

    /** The client half-closed: it has nothing more to ask, so the session ends. */
    @Override
    public void onCompleted() {
        close();
    }

    private void fail(CodecException cause) {
        LOG.debug("closing {}: {}", this, cause.toString());
        finishOutbound(Status.INVALID_ARGUMENT.withDescription("malformed frame: " + cause.getMessage()));
        ended(cause);
    }

    /** Why gRPC ended the stream: null when the client went away, else the error (a message above the limit). */
    private Throwable cancellationCause() {
        return callBudget.closedWithError();
    }

    /** Reports the end to the handler, once. */
    private void ended(Throwable cause) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        outboundDone.set(true);
        queue().discard();
        synchronized (handlerLock) {
            try {
                handler.sessionClosed(this, cause);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on closing {}", this, e);
            }
        }
        onEnd.accept(this);
    }

    // ------------------------------------------------------------------ outbound (the agent's frames)

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    protected void startWriting() {
        drain();
    }

    /** Drains the queue into the stream while it is ready; once a close was asked for and nothing waits, completes it. */
    private void drain() {
        StreamWriter.drain(queue(), out, sendLock, outboundDone::get, () -> {
            if (closing) {
                finishOutbound(null);
            }
        });
    }

    @Override
    public boolean isOpen() {
        return !outboundDone.get();
    }

    /**
     * Completes the stream once what was sent before has gone to gRPC, or after a grace period if
     * the client does not read it; the end is reported once gRPC has sent it all.
     */
    @Override
    public void close() {
        queue().close();
        synchronized (sendLock) {
            if (outboundDone.get() || closing) {
                return;
            }
            closing = true;
        }
        drain();
        if (!outboundDone.get()) {
            CompletableFuture.delayedExecutor(CLOSE_FLUSH_GRACE_MILLIS, TimeUnit.MILLISECONDS).execute(() ->
                    finishOutbound(Status.UNAVAILABLE.withDescription("the session closed and its client did not"
                            + " read what was sent before within " + CLOSE_FLUSH_GRACE_MILLIS + " ms")));
        }
    }

    /** Ends the stream now, dropping what waits: the client stopped reading (or a policy gave up on it). */
    @Override
    protected void abort(Throwable cause) {
        queue().discard();
        LOG.debug("closing {}: {}", this, cause.toString());
        finishOutbound(Status.RESOURCE_EXHAUSTED.withDescription(cause.getMessage()));
        ended(cause);
    }

    /** Ends the stream because the server stops; the end is reported by the cancel or close handler. */
    void stop(Status status) {
        queue().discard();
        finishOutbound(status);
    }

    private void finishOutbound(Status error) {
        synchronized (sendLock) {
            if (!outboundDone.compareAndSet(false, true)) {
                return;
            }
            queue().discard();
            try {
                if (error == null) {
                    out.onCompleted();
                } else {
                    out.onError(error.asRuntimeException());
                }
            } catch (IllegalStateException e) {
                LOG.debug("{} was closed already", this);
            }
        }
    }

    /** For a server that stops: reports the end if gRPC has not. */
    void reportEndIfPending() {
        ended(null);
    }
}
