package org.salgate.agent.stream;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.salgate.model.Reading;

/** What a stream reads from: one command of one sensor with checked arguments. */
public interface StreamSource {

    /** The sensor read, for logs and for ending its streams. */
    String sensorId();

    /** A short label such as {@code DUMMY_0/read}, for logs. */
    String label();

    /** Reads once. Must not throw: a failure is a reading with an error status. The sequence is ignored. */
    Reading read();

    /**
     * Whether reads wait for a device's lane: the stream's ticks then call {@link #readLater()},
     * never {@link #read()}, so that a slow device does not hold the streams' threads.
     */
    default boolean deferred() {
        return false;
    }

    /** Reads once, completing when the reading is there; must not fail: a failure is a reading. */
    default CompletionStage<Reading> readLater() {
        return CompletableFuture.completedFuture(read());
    }

    /** The stream started producing. Called once, before the first read. */
    void started();

    /** The stream that had started ended. Called once, after the last frame. */
    void stopped();
}
