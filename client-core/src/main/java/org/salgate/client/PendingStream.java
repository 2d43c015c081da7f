package org.salgate.client;

import java.util.concurrent.CompletableFuture;
import org.salgate.model.SlowConsumerPolicy;

/**
 * A stream the agent has set up but not started, as returned by {@link SalClient#setupStream}: the
 * agent has checked the sensor, the command, its arguments and the interval, and holds the stream
 * under its id. Start it once, or cancel it. Thread-safe.
 */
public interface PendingStream {

    /** The stream id the agent gave it. */
    long id();

    /** The slow-consumer policy the agent applies to it: the one asked for, or the agent's default. */
    SlowConsumerPolicy policy();

    /** Whether it was set up as the agent's shared stream of its command (joined on {@link #start}). */
    boolean shared();

    /**
     * Starts the stream. The listener is registered before the agent is asked, so it gets every
     * reading from sequence 0 (of a shared stream: from the reading the shared stream takes next), in
     * order, on the transport's thread.
     *
     * @return the started stream; fails with {@link IllegalStateException} when this stream was
     *     started or cancelled before
     */
    CompletableFuture<SensorStream> start(StreamListener listener);

    /**
     * Drops the stream without starting it; the agent forgets it.
     *
     * @return completes once the agent answered; fails with {@link IllegalStateException} when
     *     this stream was started or cancelled before
     */
    CompletableFuture<Void> cancel();
}
