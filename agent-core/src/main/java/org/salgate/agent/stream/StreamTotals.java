package org.salgate.agent.stream;

import java.util.concurrent.atomic.LongAdder;
import org.salgate.model.StreamCounts;

/**
 * What became of the readings of every stream the agent has served, ended ones included: each
 * {@link ServedStream} adds here as it counts its own. Thread-safe; only grows.
 */
final class StreamTotals {

    private final LongAdder delivered = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder encoded = new LongAdder();
    /** Counts a stream frame encoded (a shared one once per codec, for all its subscribers). */
    private final Runnable countEncoded = encoded::increment;

    void delivered() {
        delivered.increment();
    }

    void skipped() {
        skipped.increment();
    }

    void dropped(long n) {
        dropped.add(n);
    }

    /** What a frame runs when a codec encodes it: the same object for every frame. */
    Runnable encodedCounter() {
        return countEncoded;
    }

    long encodedFrames() {
        return encoded.sum();
    }

    StreamCounts snapshot() {
        return new StreamCounts(delivered.sum(), skipped.sum(), dropped.sum());
    }
}
