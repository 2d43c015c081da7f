package org.salgate.transport;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Log lines about what peers do, at most one a second per cause: a hostile peer can make the same
 * thing happen thousands of times a second, and a line each time would fill the disk and hide
 * everything else. The line after a quiet second says how many were left out since the last one.
 * Thread-safe.
 */
public final class RateLimitedLog {

    /** The least time between two lines of one cause. */
    static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Logger logger;
    private final Level level;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();

    private static final class Slot {
        final AtomicLong nextNanos = new AtomicLong(Long.MIN_VALUE);
        final AtomicLong suppressed = new AtomicLong();
    }

    /** Lines at {@code level} on {@code logger}. */
    public RateLimitedLog(Logger logger, Level level) {
        this.logger = logger;
        this.level = level;
    }

    /**
     * Logs {@code format} with {@code args} (SLF4J's {@code {}} placeholders) unless a line of the same
     * {@code cause} went out less than a second ago, in which case it is only counted.
     *
     * @return whether the line was written
     */
    public boolean log(String cause, String format, Object... args) {
        if (!logger.isEnabledForLevel(level)) {
            return false;
        }
        Slot slot = slots.computeIfAbsent(cause, c -> new Slot());
        long now = System.nanoTime();
        long next = slot.nextNanos.get();
        if ((next != Long.MIN_VALUE && now - next < 0) || !slot.nextNanos.compareAndSet(next, now + PERIOD_NANOS)) {
            slot.suppressed.incrementAndGet();
            return false;
        }
        long left = slot.suppressed.getAndSet(0);
        if (left == 0) {
            logger.atLevel(level).log(format, args);
        } else {
            logger.atLevel(level).log(format + " (and " + left + " more like it since the last such line)", args);
        }
        return true;
    }
}
