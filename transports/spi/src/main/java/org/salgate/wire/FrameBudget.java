package org.salgate.wire;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes all of a server's connections may hold, together, for frames that are not whole yet.
 * Each {@link FrameReader} of the server draws on it for what it keeps between reads and gives it
 * back once its frames are cut or its connection closes; the reader whose frame would pass the
 * bound fails with a {@link CodecException}, which closes that connection only. Thread-safe.
 */
public final class FrameBudget {

    private final long maxBytes;
    private final AtomicLong held = new AtomicLong();

    public FrameBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("the budget must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The bound, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }

    /** The bytes held now across the readers that draw on this budget. */
    public long held() {
        return held.get();
    }

    /** Takes {@code n} bytes if they fit under the bound; false, taking nothing, if they do not. */
    boolean take(long n) {
        long now;
        do {
            now = held.get();
            if (now + n > maxBytes) {
                return false;
            }
        } while (!held.compareAndSet(now, now + n));
        return true;
    }

    /** Gives back {@code n} bytes taken earlier. */
    void give(long n) {
        held.addAndGet(-n);
    }
}
