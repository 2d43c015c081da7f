package org.salgate.client;

import org.salgate.model.Reading;
import org.salgate.model.StreamCounts;

/**
 * Receives the readings of one stream, in order, on the transport's thread. A listener that blocks
 * makes this client stop reading from the agent (every stream and response on the connection
 * waits), which the agent sees as a slow client; hand slow work to another thread, and never wait
 * here for a future of the same client.
 */
public interface StreamListener {

    /**
     * The next reading of the stream. Sequence numbers count from 0 (a shared stream's from wherever
     * the shared stream was when this client joined); they jump only where this client lost readings
     * (the drop-oldest policy, or any reading of a shared stream it was not taking), and
     * {@link #onGap} tells of each jump before the reading after it.
     */
    void onReading(Reading reading);

    /**
     * Readings were lost before the next one: the agent dropped the oldest while this client was not
     * reading (policy drop-oldest), or, on a shared stream, went on without this client while it was
     * not reading. The client library also logs the first gap of a stream.
     *
     * @param missed how many readings are missing
     * @param nextSequence the sequence number of the reading that follows the gap
     */
    default void onGap(long missed, long nextSequence) {}

    /**
     * The stream is over: stopped by this client, ended by the agent (sensor or protocol removed,
     * agent stopping), or the connection closed. Called once, after the last reading.
     *
     * @param reason why, for humans
     */
    default void onEnded(String reason) {}

    /**
     * The stream is over, with what became of its readings: delivered, skipped (not taken while this
     * client was not reading) and dropped. The counts are the agent's when it reported them (a
     * stop's answer, its end of the stream), else what this client saw. Called once, instead of
     * {@link #onEnded(String)}, which it calls unless overridden.
     */
    default void onEnded(String reason, StreamCounts counts) {
        onEnded(reason);
    }
}
