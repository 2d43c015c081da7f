package org.salgate.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.salgate.wire.Call;
import org.salgate.wire.ErrorCode;
import org.salgate.wire.Reading;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A stream registered on a connection: delivers its frames to the listener and ends it exactly once. */
final class ActiveStream implements SensorStream {

    private static final Logger LOG = LoggerFactory.getLogger(ActiveStream.class);

    private final long id;
    private final StreamListener listener;
    private final ClientConnection connection;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicReference<CompletableFuture<Void>> stopping = new AtomicReference<>();
    /** Only touched on the transport's delivering thread: the first listener failure is logged in full. */
    private long listenerFailures;

    ActiveStream(long id, StreamListener listener, ClientConnection connection) {
        this.id = id;
        this.listener = listener;
        this.connection = connection;
    }

    @Override
    public long id() {
        return id;
    }

    boolean isEnded() {
        return ended.get();
    }

    void deliver(Reading reading) {
        if (ended.get()) {
            return;
        }
        try {
            listener.onReading(reading);
        } catch (RuntimeException e) {
            if (listenerFailures++ == 0) {
                LOG.warn("the listener of stream {} threw; the stream goes on (further failures logged at debug)", id, e);
            } else {
                LOG.debug("the listener of stream {} threw again", id, e);
            }
        }
    }

    /** Ends the stream and tells the listener, unless it ended already. */
    void end(String reason) {
        if (ended.compareAndSet(false, true)) {
            try {
                listener.onEnded(reason);
            } catch (RuntimeException e) {
                LOG.warn("the listener of stream {} threw in onEnded", id, e);
            }
        }
    }

    /** Ends the stream without telling the listener: it never started. */
    void abandon() {
        ended.set(true);
    }

    @Override
    public CompletableFuture<Void> stop() {
        CompletableFuture<Void> existing = stopping.get();
        if (existing != null) {
            return existing;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (!stopping.compareAndSet(null, mine)) {
            return stopping.get();
        }
        if (ended.get()) {
            mine.complete(null);
            return mine;
        }
        connection.request(new Call.StopStream(id)).whenComplete((result, error) -> {
            if (error == null || ended.get() || isUnknownStream(error)) {
                connection.unregister(this);
                end("stopped by this client");
                mine.complete(null);
            } else {
                stopping.compareAndSet(mine, null); // let a later stop() try again
                mine.completeExceptionally(error);
            }
        });
        return mine;
    }

    /** The agent no longer knows the stream: it ended on its side while the stop was on its way. */
    static boolean isUnknownStream(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e instanceof SalException se && se.code() == ErrorCode.UNKNOWN_STREAM;
    }
}
