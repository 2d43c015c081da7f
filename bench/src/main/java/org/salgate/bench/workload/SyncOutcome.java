package org.salgate.bench.workload;

import org.HdrHistogram.Histogram;

/**
 * What a synchronous workload measured over all its clients.
 *
 * @param latencies round trips in nanoseconds; with a fixed rate, measured from each call's intended start
 * @param serviceTimes round trips from the actual send (equal to {@code latencies} in closed loop)
 * @param calls completed calls
 * @param errors failed calls
 * @param elapsedNanos wall time of the measured part
 * @param firstError the first failure's message, or null
 */
public record SyncOutcome(Histogram latencies, Histogram serviceTimes, long calls, long errors, long elapsedNanos,
                          String firstError) {

    /** Completed calls per second over all clients. */
    public double callsPerSecond() {
        return elapsedNanos > 0 ? calls * 1e9 / elapsedNanos : 0;
    }
}
