package org.salgate.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A stream registered on a connection: delivers its frames to the listener and ends it exactly once. */
final class ActiveStream implements SensorStream {

    private static final Logger LOG = LoggerFactory.getLogger(ActiveStream.class);

    private final long id;
    private final SlowConsumerPolicy policy;
    private final boolean shared;
    private final StreamListener listener;
    private final CompletableFuture<StreamCounts> counts;
    private final ClientConnection connection;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicReference<CompletableFuture<Void>> stopping = new AtomicReference<>();
    /** Only touched on the transport's delivering thread: the first listener failure is logged in full. */
    private long listenerFailures;
    /**
     * Only touched on the delivering thread: the next sequence number expected (-1 until the first
     * reading of a shared stream, which starts wherever the shared stream is), readings seen and missed.
     */
    private long expected;
    private volatile long received;
    private volatile long missed;

    /**
     * @param shared whether the stream is the agent's shared stream, whose first reading here is the
     *     one the shared stream is at when this client joins: no gap is counted before it
     */
    ActiveStream(long id, SlowConsumerPolicy policy, boolean shared, StreamListener listener,
                 ClientConnection connection) {
        this.id = id;
        this.policy = policy;
        this.shared = shared;
        this.expected = shared ? -1 : 0;
        this.listener = listener;
        this.connection = connection;
        this.counts = new CompletableFuture<>();
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
    public CompletableFuture<StreamCounts> counts() {
        return counts;
    }

    boolean isEnded() {
        return ended.get();
    }

    void deliver(Reading reading) {
        if (ended.get()) {
            return;
        }
        received++;
        if (expected >= 0 && reading.sequence() > expected) {
            gap(reading.sequence() - expected, reading.sequence());
        }
        expected = reading.sequence() + 1;
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

    private void gap(long lost, long next) {
        if (missed == 0) {
            LOG.info("stream {} lost {} before sequence {}: {} while this client was not reading "
                    + "(policy {}); further gaps are logged at debug", id, Counts.of(lost, "reading"), next,
                    shared ? "the shared stream went on" : "the agent dropped the oldest", policy);
        } else {
            LOG.debug("stream {} lost {} before sequence {}", id, Counts.of(lost, "reading"), next);
        }
        missed += lost;
        try {
            listener.onGap(lost, next);
        } catch (RuntimeException e) {
            LOG.warn("the listener of stream {} threw in onGap", id, e);
        }
    }

    /** Ends the stream with what this client saw, and tells the listener, unless it ended already. */
    void end(String reason) {
        end(reason, new StreamCounts(received, 0, missed));
    }

    /** Ends the stream with the agent's counts, and tells the listener, unless it ended already. */
    void end(String reason, StreamCounts agentCounts) {
        if (ended.compareAndSet(false, true)) {
            try {
                listener.onEnded(reason, agentCounts);
            } catch (RuntimeException e) {
                LOG.warn("the listener of stream {} threw in onEnded", id, e);
            }
            counts.complete(agentCounts);
        }
    }

    /** Ends the stream without telling the listener: it never started. */
    void abandon() {
        ended.set(true);
        counts.complete(StreamCounts.NONE);
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
                if (result instanceof Result.StreamStopped stopped) {
                    end("stopped by this client", stopped.counts());
                } else {
                    end("stopped by this client");
                }
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
