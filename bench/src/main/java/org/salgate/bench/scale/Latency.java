package org.salgate.bench.scale;

import org.HdrHistogram.Histogram;

/**
 * The latencies of one client's calls, in microseconds.
 *
 * @param calls calls measured (those that succeeded)
 * @param errors calls that failed or timed out
 * @param firstError the first failure's message, or null
 */
public record Latency(long calls, long errors, String firstError, double meanMicros, double p50Micros,
                      double p90Micros, double p99Micros, double minMicros, double maxMicros) {

    static Latency of(Histogram nanos, long errors, String firstError) {
        if (nanos.getTotalCount() == 0) {
            return new Latency(0, errors, firstError, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN);
        }
        return new Latency(nanos.getTotalCount(), errors, firstError, nanos.getMean() / 1e3,
                nanos.getValueAtPercentile(50) / 1e3, nanos.getValueAtPercentile(90) / 1e3,
                nanos.getValueAtPercentile(99) / 1e3, nanos.getMinValue() / 1e3, nanos.getMaxValue() / 1e3);
    }
}
