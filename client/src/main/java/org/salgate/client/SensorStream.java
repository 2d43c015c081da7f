package org.salgate.client;

import java.util.concurrent.CompletableFuture;

/** A started stream, as returned by {@link SalClient#stream} or {@link PendingStream#start}. Thread-safe. */
public interface SensorStream {

    /** The stream id the agent gave it. */
    long id();

    /**
     * Asks the agent to stop the stream. The future completes once the agent answered (no reading
     * follows) or the stream ended anyway; calling it again returns the same future.
     */
    CompletableFuture<Void> stop();
}
