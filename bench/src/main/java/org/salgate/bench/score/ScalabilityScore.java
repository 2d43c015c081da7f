package org.salgate.bench.score;

/**
 * The weighted scalability (paper Table III, VII):
 * {@code 5/7 (0.3 TR_sync + 0.7 TR_async) + 2/7 (0.3 RU_sync + 0.7 RU_async)}. The weights 5/7 and
 * 2/7 are the top-level 50 % and 20 % renormalised, which is what the paper's Table III computes
 * (its text says 70/30). Inputs are scalability ratios in percent of the baseline.
 */
public record ScalabilityScore(double trSync, double trAsync, double ruSync, double ruAsync) {

    public static final double TR_WEIGHT = 5.0 / 7.0;
    public static final double RU_WEIGHT = 2.0 / 7.0;

    /** From the weighted components the paper prints (already multiplied by 0.3 and 0.7). */
    public static ScalabilityScore ofWeighted(double trSyncW, double trAsyncW, double ruSyncW, double ruAsyncW) {
        return new ScalabilityScore(trSyncW / TransferRateScore.SYNC_WEIGHT, trAsyncW / TransferRateScore.ASYNC_WEIGHT,
                ruSyncW / TransferRateScore.SYNC_WEIGHT, ruAsyncW / TransferRateScore.ASYNC_WEIGHT);
    }

    public double trSyncWeighted() {
        return TransferRateScore.SYNC_WEIGHT * trSync;
    }

    public double trAsyncWeighted() {
        return TransferRateScore.ASYNC_WEIGHT * trAsync;
    }

    public double ruSyncWeighted() {
        return TransferRateScore.SYNC_WEIGHT * ruSync;
    }

    public double ruAsyncWeighted() {
        return TransferRateScore.ASYNC_WEIGHT * ruAsync;
    }

    /** The transfer-rate part, 5/7 of it. */
    public double trPart() {
        return TR_WEIGHT * (trSyncWeighted() + trAsyncWeighted());
    }

    /** The resource part, 2/7 of it. */
    public double ruPart() {
        return RU_WEIGHT * (ruSyncWeighted() + ruAsyncWeighted());
    }

    public double total() {
        return trPart() + ruPart();
    }
}
