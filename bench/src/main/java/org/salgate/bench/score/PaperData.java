package org.salgate.bench.score;

import java.util.List;

/**
 * The numbers printed in the SAL paper's Tables I-VIII (seed 003, sections V-VI), in percent of RMI.
 * Inputs are the ratio columns (Tables I, II, V, VI), the weighted components and totals of the
 * scalability tables (III, VII); the rest are the paper's printed outputs, kept to check against.
 */
public final class PaperData {

    private PaperData() {}

    /** One transport's printed row across Tables I-IV (transport level) or V-VIII (agent level, Netty in SAL). */
    public record Row(String name,
                      TransferRateScore tr, double printedTrSyncW, double printedTrAsyncW, double printedTrTotal,
                      ResourceScore ru, double printedRuSyncW, double printedRuAsyncW, double printedRuTotal,
                      ScalabilityScore sc, double printedScTrPart, double printedScRuPart, double printedScTotal,
                      double printedFinalTr, double printedFinalRu, double printedFinalSc, double printedFinal) {}

    /** Tables I-IV. The transfer-rate input keeps the RTT and TP columns apart for display. */
    public static final List<Row> TRANSPORT_LEVEL = List.of(
            new Row("MINA",
                    TransferRateScore.ofMethods(35.29, 80.51, 130.83), 17.37, 91.58, 108.95,
                    new ResourceScore(96.82, 118.86, 79.82, 118.84), 32.35, 69.53, 101.88,
                    ScalabilityScore.ofWeighted(17.12, 88.60, 33.53, 17.70), 75.51, 13.64, 90.15,
                    54.48, 20.38, 27.05, 101.90),
            new Row("Netty",
                    TransferRateScore.ofMethods(92.05, 93.94, 133.90), 27.90, 93.73, 121.63,
                    new ResourceScore(105.16, 118.11, 50.33, 110.10), 33.49, 56.15, 89.64,
                    ScalabilityScore.ofWeighted(36.21, 89.46, 36.65, 9.19), 89.77, 13.10, 102.86,
                    60.81, 17.93, 30.86, 109.60),
            new Row("xSocket",
                    TransferRateScore.ofMethods(43.25, 48.86, 129.03), 13.82, 90.32, 104.14,
                    new ResourceScore(95.77, 40.98, 104.13, 116.52), 20.51, 77.23, 97.74,
                    ScalabilityScore.ofWeighted(16.13, 90.39, 22.39, 81.79), 76.09, 29.77, 105.85,
                    52.07, 19.55, 31.76, 103.37));

    /** The RTT and TP columns of Table I, which {@link TransferRateScore} folds into one synchronous ratio. */
    public static final List<double[]> TABLE_I_RTT_TP = List.of(
            new double[] {35.29, 80.51}, new double[] {92.05, 93.94}, new double[] {43.25, 48.86});

    /** Tables V-VIII: Netty in SAL. */
    public static final Row AGENT_LEVEL = new Row("Netty",
            new TransferRateScore(97.30, 240.45), 29.19, 168.31, 197.50,
            new ResourceScore(99.52, 99.59, 82.52, 96.61), 29.87, 62.70, 92.56,
            ScalabilityScore.ofWeighted(35.59, 160.37, 30.34, 47.13), 140.20, 29.16, 169.37,
            97.75, 18.51, 50.81, 168.08);
}
