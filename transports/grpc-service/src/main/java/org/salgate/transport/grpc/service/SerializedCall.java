package org.salgate.transport.grpc.service;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A call whose methods the service uses are serialized ({@code request} and {@code isCancelled},
 * thread-safe, aside), so that the transport may close it from its own thread ({@link CallBudget} on
 * the connection's event loop) while the service sends on the agent's: a {@link ServerCall} takes
 * one call at a time. Once closed, by either, what is sent is dropped and a second close does
 * nothing. Its budget is told when the stream is still ready after an answer.
 */
final class SerializedCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {

    private final CallBudget budget;
    /** Guarded by this. */
    private boolean closed;

    SerializedCall(ServerCall<Q, R> call, CallBudget budget) {
        super(call);
        this.budget = budget;
    }

    @Override
    public synchronized void sendHeaders(Metadata headers) {
        if (!closed) {
            super.sendHeaders(headers);
        }
    }

    @Override
    public void sendMessage(R message) {
        synchronized (this) {
            if (closed) {
                return;
            }
            super.sendMessage(message);
        }
        if (isReady()) {
            budget.ready();
        }
    }

    @Override
    public synchronized boolean isReady() {
        return super.isReady();
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
        if (!closed) {
            closed = true;
            super.close(status, trailers);
        }
    }
}
