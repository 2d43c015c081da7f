package org.salgate.client;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;

/** A stream set up on a connection and not started yet: started or cancelled at most once. */
final class SetUpStream implements PendingStream {

    private final long id;
    private final SlowConsumerPolicy policy;
    private final boolean shared;
    private final ClientConnection connection;
    private final AtomicBoolean used = new AtomicBoolean();

    SetUpStream(long id, SlowConsumerPolicy policy, boolean shared, ClientConnection connection) {
        this.id = id;
        this.policy = policy;
        this.shared = shared;
        this.connection = connection;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public SlowConsumerPolicy policy() {
        return policy;
    }

    @Override
    public boolean shared() {
        return shared;
    }

    @Override
    public CompletableFuture<SensorStream> start(StreamListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (!used.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(usedAlready());
        }
        return connection.start(id, policy, shared, listener);
    }

    @Override
    public CompletableFuture<Void> cancel() {
        if (!used.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(usedAlready());
        }
        return connection.request(new Call.StopStream(id)).handle((result, error) -> {
            if (error == null && !(result instanceof Result.StreamStopped || result instanceof Result.Ack)) {
                throw new CompletionException(ClientConnection.unexpected("StopStream", result));
            }
            if (error != null && !ActiveStream.isUnknownStream(error)) { // unknown: it is gone already
                throw ClientConnection.asCompletion(error);
            }
            return null;
        });
    }

    private IllegalStateException usedAlready() {
        return new IllegalStateException("stream " + id + " was started or cancelled already; set up a new one");
    }

    @Override
    public String toString() {
        return "PendingStream[" + id + (shared ? ", shared" : "") + "]";
    }
}
