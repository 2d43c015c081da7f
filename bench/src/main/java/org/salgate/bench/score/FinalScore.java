package org.salgate.bench.score;

/**
 * The final weighting (paper Table IV, VIII): {@code 0.5 TR + 0.2 RU + 0.3 SC}, from the three
 * criteria's totals in percent of the baseline.
 */
public record FinalScore(double transferRate, double resourceUsage, double scalability) {

    public static final double TR_WEIGHT = 0.5;
    public static final double RU_WEIGHT = 0.2;
    public static final double SC_WEIGHT = 0.3;

    public static FinalScore of(TransferRateScore tr, ResourceScore ru, ScalabilityScore sc) {
        return new FinalScore(tr.total(), ru.total(), sc.total());
    }

    public double trWeighted() {
        return TR_WEIGHT * transferRate;
    }

    public double ruWeighted() {
        return RU_WEIGHT * resourceUsage;
    }

    public double scWeighted() {
        return SC_WEIGHT * scalability;
    }

    public double total() {
        return trWeighted() + ruWeighted() + scWeighted();
    }
}
