package org.salgate.bench.score;

/**
 * Which way a metric improves, which decides how its ratio against the baseline is taken
 * (BENCH-SPEC section 3): rates are transport / baseline, times and resources baseline / transport.
 * Every ratio is in percent: 100 is the baseline, above 100 is better than the baseline.
 */
public enum Direction {
    /** Rates: calls per second, messages per second. */
    HIGHER_IS_BETTER,
    /** Times (round trip) and resources (CPU, memory): using less is better. */
    LOWER_IS_BETTER;

    /** The transport's ratio to the baseline in percent; NaN when it cannot be taken (a zero or missing value). */
    public double ratio(double transport, double baseline) {
        double r = this == HIGHER_IS_BETTER ? transport / baseline : baseline / transport;
        return Double.isFinite(r) && transport > 0 && baseline > 0 ? 100.0 * r : Double.NaN;
    }

    /**
     * How well a metric holds from the smallest to the largest client count, against the baseline
     * (BENCH-SPEC section 4, ours): {@code (large/small)_transport / (large/small)_baseline} for
     * rates, inverted for times and resources; in percent.
     */
    public double scalability(double transportSmall, double transportLarge, double baselineSmall,
                              double baselineLarge) {
        double t = transportLarge / transportSmall;
        double b = baselineLarge / baselineSmall;
        return ratio(t, b);
    }
}
