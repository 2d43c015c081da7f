package org.salgate.bench.score;

/**
 * The weighted resource usage (paper Table II, VI):
 * {@code 0.3 * (0.5 CPU_sync + 0.5 Mem_sync) + 0.7 * (0.5 CPU_async + 0.5 Mem_async)}, in percent of the baseline.
 */
public record ResourceScore(double cpuSync, double memSync, double cpuAsync, double memAsync) {

    public double syncWeighted() {
        return TransferRateScore.SYNC_WEIGHT * (0.5 * cpuSync + 0.5 * memSync);
    }

    public double asyncWeighted() {
        return TransferRateScore.ASYNC_WEIGHT * (0.5 * cpuAsync + 0.5 * memAsync);
    }

    public double total() {
        return syncWeighted() + asyncWeighted();
    }
}
