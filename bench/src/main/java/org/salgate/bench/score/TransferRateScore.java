package org.salgate.bench.score;

/**
 * The weighted transfer rate (paper Table I, V): {@code 0.3 * sync + 0.7 * async}, where at
 * transport level sync is the mean of the RTT and TP ratios. All values in percent of the baseline.
 *
 * @param syncRatio the synchronous ratio (transport level: 0.5 RTT + 0.5 TP; agent level: sensor-list TP)
 * @param asyncRatio the asynchronous (streaming) ratio
 */
public record TransferRateScore(double syncRatio, double asyncRatio) {

    public static final double SYNC_WEIGHT = 0.3;
    public static final double ASYNC_WEIGHT = 0.7;

    /** Transport level: RTT and TP weigh half each within the synchronous part. */
    public static TransferRateScore ofMethods(double rtt, double tp, double streaming) {
        return new TransferRateScore(0.5 * rtt + 0.5 * tp, streaming);
    }

    public double syncWeighted() {
        return SYNC_WEIGHT * syncRatio;
    }

    public double asyncWeighted() {
        return ASYNC_WEIGHT * asyncRatio;
    }

    public double total() {
        return syncWeighted() + asyncWeighted();
    }
}
