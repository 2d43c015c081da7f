package org.salgate.client;

import java.util.concurrent.CompletableFuture;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;

/** A started stream, as returned by {@link SalClient#stream} or {@link PendingStream#start}. Thread-safe. */
public interface SensorStream {

    /** The stream id the agent gave it. */
    long id();

    /**
     * Asks the agent to stop the stream. The future completes once the agent answered (no reading
     * follows) or the stream ended anyway; calling it again returns the same future.
     */
    CompletableFuture<Void> stop();

    /** The slow-consumer policy the agent applies to this stream. */
    SlowConsumerPolicy policy();

    /**
     * Whether this is the agent's shared stream of its command, which other clients may be taking
     * too ({@link SalClient#stream(String, String, java.util.Map, long, SlowConsumerPolicy, boolean,
     * StreamListener)}): then {@link #stop()} takes only this client out of it.
     */
    boolean shared();

    /**
     * Completes when the stream is over (stopped, ended by the agent, or its connection closed) with
     * what became of its readings, as {@link StreamListener#onEnded(String, StreamCounts)} gets them.
     */
    CompletableFuture<StreamCounts> counts();
}
