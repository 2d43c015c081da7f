package org.salgate.plugin.os;

import java.util.Arrays;
import org.salgate.plugin.spi.SensorUnavailableException;

/**
 * The percentage of CPU time spent in one state since the previous read, from tick counters;
 * the first read compares with boot (all counters 0). One per sensor, so each sensor's readings
 * cover the time since its own previous read. Thread-safe.
 */
final class CpuTimeShare {

    private final CpuState state;
    private long[] previous;
    private double lastPercent = Double.NaN;

    CpuTimeShare(CpuState state) {
        this.state = state;
    }

    /**
     * The share of {@code ticks} (counters since boot) in this state since the previous call, in
     * percent. When no tick has passed since then, the previous share is still the latest one.
     *
     * @throws SensorUnavailableException if the counters are all zero (the machine gave none)
     */
    synchronized double update(long[] ticks) throws SensorUnavailableException {
        if (Arrays.stream(ticks).sum() <= 0) {
            throw new SensorUnavailableException("This machine does not report CPU time counters.");
        }
        if (previous == null) {
            previous = new long[ticks.length];
        }
        long total = 0;
        long inState = 0;
        for (int i = 0; i < ticks.length; i++) {
            // Some counters (iowait on Linux) can step back a little; a negative step counts as none.
            long delta = Math.max(0, ticks[i] - (i < previous.length ? previous[i] : 0));
            total += delta;
            if (i == state.index()) {
                inState = delta;
            }
        }
        if (total == 0) {
            return lastPercent;
        }
        previous = ticks.clone();
        lastPercent = 100.0 * inState / total;
        return lastPercent;
    }
}
