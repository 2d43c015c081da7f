package org.salgate.sensorml;

/**
 * The stream intervals a sensor or command allows, in milliseconds.
 *
 * @param minIntervalMs the shortest interval; 0 means a stream may go as fast as the client takes it
 * @param maxIntervalMs the longest interval
 */
public record SamplingBounds(long minIntervalMs, long maxIntervalMs) {

    /** Any interval from 0 (as fast as the client takes it) to one day. */
    public static final SamplingBounds ANY = new SamplingBounds(0, 86_400_000L);

    public SamplingBounds {
        if (minIntervalMs < 0 || maxIntervalMs < minIntervalMs) {
            throw new IllegalArgumentException(
                    "sampling bounds need 0 <= min <= max, got " + minIntervalMs + ".." + maxIntervalMs);
        }
    }

    public boolean contains(long intervalMs) {
        return intervalMs >= minIntervalMs && intervalMs <= maxIntervalMs;
    }
}
