package org.salgate.mqtt;

/**
 * How fast the messages that waited in the store go out after a (re)connect: at most {@code perSecond}
 * a second, evenly spaced, with a burst of at most {@link #BURST} messages of credit. Brokers with a
 * publish limit per connection (AWS IoT Core, 100 a second; HiveMQ Cloud; Azure IoT Hub) throttle
 * or disconnect a client that exceeds it, and a bridge reconnecting with a large backlog would
 * otherwise send it at full speed, get disconnected, reconnect and send it again. Not thread-safe:
 * the sender thread alone uses it. Times are {@link System#nanoTime} values, passed in for tests.
 */
final class DrainRate {

    /** Messages a gap in sending may save up; small, so that the rate holds over any second. */
    static final int BURST = 16;

    private final long spacingNanos;
    private long next;

    /** A limit of {@code perSecond} messages a second; 0 for none. */
    DrainRate(int perSecond) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("a drain rate must be 0 (no limit) or more messages a second, got "
                    + perSecond);
        }
        this.spacingNanos = perSecond == 0 ? 0 : 1_000_000_000L / perSecond;
    }

    /**
     * Parses {@code N/s} or {@code N}: messages a second, 0 for no limit.
     *
     * @throws IllegalArgumentException saying what to write
     */
    static int parse(String text) {
        String digits = text.strip().endsWith("/s") ? text.strip().substring(0, text.strip().length() - 2) : text.strip();
        try {
            int n = Integer.parseInt(digits);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + text + "' is not a drain rate: give messages a second, such as"
                + " 500/s, or 0 for no limit");
    }

    /** Whether it limits anything. */
    boolean limits() {
        return spacingNanos > 0;
    }

    /** Starts afresh, with no credit: a new connection's drain begins at {@code now}. */
    void restart(long now) {
        next = now;
    }

    /**
     * Takes the next message's turn if it has come: returns 0 and counts the message, or the
     * nanoseconds to wait before asking again.
     */
    long take(long now) {
        if (!limits()) {
            return 0;
        }
        long earliest = now - BURST * spacingNanos;
        if (next - earliest < 0) {
            next = earliest;
        }
        if (next - now > 0) {
            return next - now;
        }
        next += spacingNanos;
        return 0;
    }
}
