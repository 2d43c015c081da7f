package org.salgate.transport.rmi;

import java.util.ArrayDeque;
import java.util.List;

/**
 * What a session sends its client, in order: every frame gets the session's next sequence number
 * here, then either completes the remote call waiting for it or waits, counted in bytes, for the
 * session's pusher thread. Writability follows the water marks with hysteresis: false above the
 * high mark, true again only below the low mark.
 */
final class PushQueue {

    /** A frame to push, with its place in the session's sequence. */
    record Entry(long sequence, byte[] frame) {}

    /** Outcome of {@link #offer}. */
    enum Offer { ANSWERED, QUEUED, CLOSED, OVER_LIMIT }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final long highWater;
    private final long lowWater;
    private final long limit;
    private long bytes;
    private long nextSequence;
    private volatile boolean writable = true;
    private boolean closed;

    PushQueue(long highWater, long lowWater, long limit) {
        this.highWater = highWater;
        this.lowWater = lowWater;
        this.limit = limit;
    }

    /**
     * Numbers a frame; hands it to {@code waiting} when that call still waits, else queues it.
     * Never blocks.
     */
    synchronized Offer offer(byte[] frame, PendingCall waiting) {
        if (closed) {
            return Offer.CLOSED;
        }
        if (waiting != null && waiting.complete(nextSequence, frame)) {
            nextSequence++;
            return Offer.ANSWERED;
        }
        long after = bytes + frame.length;
        if (after > limit) {
            return Offer.OVER_LIMIT;
        }
        bytes = after;
        if (after > highWater) {
            writable = false;
        }
        entries.addLast(new Entry(nextSequence++, frame));
        if (entries.size() == 1) {
            notifyAll();
        }
        return Offer.QUEUED;
    }

    /**
     * Moves the next frames to {@code batch}, waiting for one: as many as are queued, up to
     * {@code maxFrames} and (after the first) {@code maxBytes}.
     *
     * @return false once the queue is closed and empty
     */
    synchronized boolean take(List<Entry> batch, int maxFrames, long maxBytes) throws InterruptedException {
        while (entries.isEmpty()) {
            if (closed) {
                return false;
            }
            wait();
        }
        long taken = 0;
        while (!entries.isEmpty() && batch.size() < maxFrames) {
            int length = entries.peekFirst().frame().length;
            if (!batch.isEmpty() && taken + length > maxBytes) {
                break;
            }
            batch.add(entries.pollFirst());
            taken += length;
        }
        return true;
    }

    /** Reports pushed bytes gone; true when the queue just became writable again. */
    synchronized boolean pushed(long pushedBytes) {
        bytes -= pushedBytes;
        if (!writable && bytes < lowWater) {
            writable = true;
            return true;
        }
        return false;
    }

    boolean isWritable() {
        return writable;
    }

    /** Refuses further frames; {@link #take} still returns those queued. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Refuses further frames and drops those queued. */
    synchronized void abort() {
        closed = true;
        entries.clear();
        notifyAll();
    }

    /** After the queue closed and drained: the sequence number of the session's end. */
    synchronized long endSequence() {
        return nextSequence++;
    }
}
