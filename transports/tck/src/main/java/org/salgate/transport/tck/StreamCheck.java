package org.salgate.transport.tck;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a client saw of one numbered stream: how many frames, whether their sequence numbers ran
 * 0, 1, 2... without gap, duplicate or reordering, and whether the stream ended. Updated by one
 * delivering thread, read by the test thread.
 */
public final class StreamCheck {

    private final long streamId;
    private final AtomicLong received = new AtomicLong();
    private final AtomicReference<String> violation = new AtomicReference<>();
    private final CompletableFuture<String> ended = new CompletableFuture<>();

    public StreamCheck(long streamId) {
        this.streamId = streamId;
    }

    /** Records a frame with its sequence number, and its payload problem if any (null when fine). */
    public void frame(long sequence, String payloadProblem) {
        long expected = received.get();
        if (ended.isDone()) {
            violation.compareAndSet(null, "frame " + sequence + " arrived after the stream ended");
        } else if (sequence != expected) {
            violation.compareAndSet(null, "expected sequence " + expected + ", got " + sequence
                    + (sequence < expected ? " (duplicate or reordered)" : " (gap)"));
        } else if (payloadProblem != null) {
            violation.compareAndSet(null, "frame " + sequence + ": " + payloadProblem);
        }
        received.incrementAndGet();
    }

    /** Records the end of the stream with the server's reason. */
    public void end(String reason) {
        ended.complete(reason);
    }

    public long streamId() {
        return streamId;
    }

    /** Frames received so far. */
    public long received() {
        return received.get();
    }

    /** The first problem seen, or null. */
    public String violation() {
        return violation.get();
    }

    /** Completes with the reason when the stream ends. */
    public CompletableFuture<String> ended() {
        return ended;
    }

    @Override
    public String toString() {
        return "stream " + streamId + ": " + received.get() + " frames" + (ended.isDone() ? ", ended" : "")
                + (violation.get() == null ? "" : ", " + violation.get());
    }
}
