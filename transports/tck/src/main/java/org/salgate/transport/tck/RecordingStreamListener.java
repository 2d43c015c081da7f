package org.salgate.transport.tck;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.salgate.client.StreamListener;
import org.salgate.model.Reading;
import org.salgate.model.StreamCounts;

/**
 * A stream listener for the agent-level suite: checks that sequence numbers run 0, 1, 2... without
 * gap, duplicate or reordering, counts readings by status, records the end, and can hold its
 * thread on the first reading to play a slow client.
 */
public final class RecordingStreamListener implements StreamListener {

    private final String name;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong notErrors = new AtomicLong();
    private final AtomicReference<String> violation = new AtomicReference<>();
    private final AtomicReference<Reading> last = new AtomicReference<>();
    private final AtomicLong readingsAfterEnd = new AtomicLong();
    private final AtomicInteger endedCalls = new AtomicInteger();
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private final CompletableFuture<StreamCounts> counts = new CompletableFuture<>();
    private final AtomicLong gapped = new AtomicLong();
    private final AtomicInteger gaps = new AtomicInteger();
    private final CountDownLatch gate;
    private volatile boolean blocked;

    private RecordingStreamListener(String name, boolean hold) {
        this.name = name;
        this.gate = hold ? new CountDownLatch(1) : null;
    }

    /** A listener that takes every reading at once. */
    public static RecordingStreamListener fast(String name) {
        return new RecordingStreamListener(name, false);
    }

    /** A listener that blocks on its first reading until {@link #release()}. */
    public static RecordingStreamListener holding(String name) {
        return new RecordingStreamListener(name, true);
    }

    @Override
    public void onReading(Reading reading) {
        if (ended.isDone()) {
            readingsAfterEnd.incrementAndGet();
        }
        long expected = received.get() + gapped.get();
        if (reading.sequence() != expected) {
            violation.compareAndSet(null, name + ": expected sequence " + expected + ", got " + reading.sequence());
        }
        if (reading.status().failed()) {
            errors.incrementAndGet();
        } else {
            notErrors.incrementAndGet();
            if (reading.status() == Reading.Status.OK) {
                ok.incrementAndGet();
            }
        }
        last.set(reading);
        received.incrementAndGet();
        if (gate != null && gate.getCount() > 0) {
            blocked = true;
            try {
                gate.await(Await.DEFAULT.toMillis() * 3, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                blocked = false;
            }
        }
    }

    @Override
    public void onGap(long missed, long nextSequence) {
        if (nextSequence != received.get() + gapped.get() + missed) {
            violation.compareAndSet(null, name + ": a gap of " + missed + " before " + nextSequence + " after "
                    + received.get() + " readings and " + gapped.get() + " missed");
        }
        gapped.addAndGet(missed);
        gaps.incrementAndGet();
    }

    @Override
    public void onEnded(String reason, StreamCounts streamCounts) {
        endedCalls.incrementAndGet();
        counts.complete(streamCounts);
        ended.complete(reason);
    }

    /** Readings the library reported missing (gaps in the sequence numbers). */
    public long gapped() {
        return gapped.get();
    }

    /** How many gaps the library reported. */
    public int gaps() {
        return gaps.get();
    }

    /** Completes with the stream's counts when it ends. */
    public CompletableFuture<StreamCounts> counts() {
        return counts;
    }

    /** Lets a holding listener go on. */
    public void release() {
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Whether the listener is now holding its thread. */
    public boolean isBlocked() {
        return blocked;
    }

    public long received() {
        return received.get();
    }

    public long errors() {
        return errors.get();
    }

    public long ok() {
        return ok.get();
    }

    /**
     * Readings that were no failed read (status neither {@code ERROR} nor {@code DISCONNECTED}).
     * Unlike {@code received() - errors()}, read while
     * the stream still delivers, it cannot count a reading that arrived between the two reads.
     */
    public long notErrors() {
        return notErrors.get();
    }

    /** The last reading, or null. */
    public Reading last() {
        return last.get();
    }

    /** The first ordering problem, or null. */
    public String violation() {
        return violation.get();
    }

    /** Readings delivered after {@code onEnded}; the contract says none. */
    public long readingsAfterEnd() {
        return readingsAfterEnd.get();
    }

    /** How often {@code onEnded} ran; the contract says at most once. */
    public int endedCalls() {
        return endedCalls.get();
    }

    /** Completes with the reason when the stream ends. */
    public CompletableFuture<String> ended() {
        return ended;
    }

    @Override
    public String toString() {
        return name + ": " + received.get() + " readings (" + errors.get() + " errors)"
                + (ended.isDone() ? ", ended: " + ended.getNow("") : "")
                + (violation.get() == null ? "" : ", " + violation.get());
    }
}
