package org.salgate.transport.grpc;

import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session on one {@code SalSession} stream: the client's frames are decoded for the
 * {@link ServerHandler}, the agent's are encoded onto the stream. Writability is gRPC's flow control:
 * the stream is ready while less than the server's high-water mark waits to be sent, and the
 * writability listener runs when gRPC says it is ready again. The handler's calls for this session
 * are made under one lock, so it sees them in order and never at once.
 */
final class GrpcSession implements Session, StreamObserver<EncodedFrame> {

    private static final Logger LOG = LoggerFactory.getLogger(GrpcSession.class);

    private final long id;
    private final String remoteAddress;
    private final String metadataCredentials;
    private final ConnectionCodec codec;
    private final ServerHandler handler;
    private final ServerCallStreamObserver<EncodedFrame> out;
    private final Context context = Context.current();
    private final Runnable onEnd;
    private final Object handlerLock = new Object();
    private final Object sendLock = new Object();
    private final AtomicBoolean outboundDone = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile Runnable writabilityListener;

    GrpcSession(long id, ServerHandler handler, ConnectionCodec codec, ServerCallStreamObserver<EncodedFrame> out,
                int writeHighWaterBytes, Runnable onEnd) {
        this.id = id;
        this.remoteAddress = CallContext.remoteAddress();
        this.metadataCredentials = CallContext.credentials();
        this.handler = handler;
        this.codec = codec;
        this.out = out;
        this.onEnd = onEnd;
        out.setOnReadyThreshold(writeHighWaterBytes);
        out.setOnReadyHandler(this::fireWritable);
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
                message = withMetadataCredentials(codec.decode(frame.getFrame().toByteArray()));
            } catch (CodecException e) {
                fail(e);
                return;
            }
            try {
                handler.messageReceived(this, message);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on a message of {}", this, e);
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
        return StreamStatus.errorOf(context);
    }

    /** Reports the end to the handler, once. */
    private void ended(Throwable cause) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        outboundDone.set(true);
        synchronized (handlerLock) {
            try {
                handler.sessionClosed(this, cause);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on closing {}", this, e);
            }
        }
        onEnd.run();
    }

    // ------------------------------------------------------------------ outbound (the agent's frames)

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void send(Message message) {
        if (outboundDone.get()) {
            return;
        }
        EncodedFrame frame = EncodedFrame.newBuilder().setFrame(ByteString.copyFrom(codec.encode(message))).build();
        synchronized (sendLock) {
            if (outboundDone.get()) {
                return;
            }
            try {
                out.onNext(frame);
            } catch (IllegalStateException | StatusRuntimeException e) {
                LOG.debug("{} is closing; a {} was not sent", this, message.getClass().getSimpleName());
            }
        }
    }

    @Override
    public boolean isWritable() {
        return !outboundDone.get() && out.isReady();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    private void fireWritable() {
        Runnable listener = writabilityListener;
        if (listener == null || outboundDone.get()) {
            return;
        }
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("the writability listener of {} failed", this, e);
        }
    }

    @Override
    public boolean isOpen() {
        return !outboundDone.get();
    }

    /** Completes the stream after what was sent before; the end is reported once gRPC has sent it all. */
    @Override
    public void close() {
        finishOutbound(null);
    }

    /** Ends the stream because the server stops; the end is reported by the cancel or close handler. */
    void abort(Status status) {
        finishOutbound(status);
    }

    private void finishOutbound(Status error) {
        synchronized (sendLock) {
            if (!outboundDone.compareAndSet(false, true)) {
                return;
            }
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

    @Override
    public String toString() {
        return "session " + id + " (" + remoteAddress + ")";
    }
}
