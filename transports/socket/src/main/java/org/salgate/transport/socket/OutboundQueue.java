package org.salgate.transport.socket;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The encoded frames waiting for one session's writer thread, counted in bytes. A frame counts
 * from when it is offered until the writer reports it {@linkplain #release written}, so the count
 * includes what sits in the stream buffer. Writability follows the water marks with hysteresis:
 * it turns false above the high mark and back to true only below the low mark.
 */
final class OutboundQueue {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
    private final long highWater;
    private final long lowWater;
    private final long limit;
    private long bytes;
    private volatile boolean writable = true;
    private boolean closed;

    /**
     * @param highWater above this many bytes the queue is not writable
     * @param lowWater below this many it is writable again
     * @param limit above this many bytes {@link #offer} refuses: the peer has stopped reading
     */
    OutboundQueue(long highWater, long lowWater, long limit) {
        this.highWater = highWater;
        this.lowWater = lowWater;
        this.limit = limit;
    }

    /** Outcome of {@link #offer}. */
    enum Offer { QUEUED, CLOSED, OVER_LIMIT }

    /** Queues a frame; never blocks. */
    Offer offer(byte[] frame) {
        lock.lock();
        try {
            if (closed) {
                return Offer.CLOSED;
            }
            long after = bytes + frame.length;
            if (after > limit) {
                return Offer.OVER_LIMIT;
            }
            bytes = after;
            if (after > highWater) {
                writable = false;
            }
            frames.addLast(frame);
            if (frames.size() == 1) {
                notEmpty.signal();
            }
            return Offer.QUEUED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves every queued frame to {@code batch}, waiting until there is one.
     *
     * @return false once the queue is closed and empty: the writer is done
     */
    boolean take(List<byte[]> batch) throws InterruptedException {
        lock.lock();
        try {
            while (frames.isEmpty()) {
                if (closed) {
                    return false;
                }
                notEmpty.await(1, TimeUnit.SECONDS);
            }
            batch.addAll(frames);
            frames.clear();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reports {@code written} bytes as gone to the socket.
     *
     * @return whether the queue just became writable again, so the listener should run
     */
    boolean release(long written) {
        lock.lock();
        try {
            bytes -= written;
            if (!writable && bytes < lowWater) {
                writable = true;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    boolean isWritable() {
        return writable;
    }

    long queuedBytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses further frames; the writer still gets what was queued. */
    void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses further frames and drops what was queued. */
    void abort() {
        lock.lock();
        try {
            closed = true;
            frames.clear();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
