package org.salgate.bench.score;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Feeds the paper's printed inputs to the scorer and compares every printed output with what the
 * formulas give. The final score takes transfer rate and resource usage from their ratio columns
 * and scalability from its printed total, because the scalability tables' columns do not always add
 * up (BENCH-SPEC section 4); every printed value that differs by more than rounding is reported.
 */
public final class PaperReproduction {

    /** A printed value that differs from the computed one by more than the paper's rounding explains. */
    public static final double TOLERANCE = 0.015;

    /** One unit of the paper's last printed digit, plus float noise: how far rounded inputs may move an output. */
    public static final double ROUNDING = 0.0101;

    /** One printed value checked against the formula. */
    public record Check(String table, String row, String column, double printed, double computed) {
        public boolean consistent() {
            return Math.abs(printed - computed) <= TOLERANCE;
        }

        public String describe() {
            return String.format(Locale.ROOT, "Table %s, %s, %s: printed %.2f %%, formula gives %.2f %%",
                    table, row, column, printed, computed);
        }
    }

    /** One row recomputed: the criteria and the final score. */
    public record Result(PaperData.Row row, FinalScore finalScore, List<Check> checks) {
        public List<Check> inconsistencies() {
            return checks.stream().filter(c -> !c.consistent()).toList();
        }
    }

    private PaperReproduction() {}

    /** Tables I-IV recomputed, one result per transport. */
    public static List<Result> transportLevel() {
        return PaperData.TRANSPORT_LEVEL.stream().map(r -> recompute(r, "I", "II", "III", "IV")).toList();
    }

    /** Tables V-VIII recomputed. */
    public static Result agentLevel() {
        return recompute(PaperData.AGENT_LEVEL, "V", "VI", "VII", "VIII");
    }

    /** Every inconsistency in the paper's Tables I-VIII. */
    public static List<Check> inconsistencies() {
        List<Check> all = new ArrayList<>();
        transportLevel().forEach(r -> all.addAll(r.inconsistencies()));
        all.addAll(agentLevel().inconsistencies());
        return all;
    }

    static Result recompute(PaperData.Row r, String trT, String ruT, String scT, String finT) {
        FinalScore fin = new FinalScore(r.tr().total(), r.ru().total(), r.printedScTotal());
        List<Check> c = new ArrayList<>();
        String n = r.name();
        c.add(new Check(trT, n, "weighted synchronous", r.printedTrSyncW(), r.tr().syncWeighted()));
        c.add(new Check(trT, n, "weighted asynchronous", r.printedTrAsyncW(), r.tr().asyncWeighted()));
        c.add(new Check(trT, n, "total", r.printedTrTotal(), r.tr().total()));
        c.add(new Check(ruT, n, "weighted synchronous", r.printedRuSyncW(), r.ru().syncWeighted()));
        c.add(new Check(ruT, n, "weighted asynchronous", r.printedRuAsyncW(), r.ru().asyncWeighted()));
        c.add(new Check(ruT, n, "total", r.printedRuTotal(), r.ru().total()));
        c.add(new Check(scT, n, "transfer rate (5/7 of the weighted TR columns)", r.printedScTrPart(), r.sc().trPart()));
        c.add(new Check(scT, n, "resource usage (2/7 of the weighted RU columns)", r.printedScRuPart(), r.sc().ruPart()));
        c.add(new Check(scT, n, "total (from its weighted columns)", r.printedScTotal(), r.sc().total()));
        c.add(new Check(scT, n, "total (sum of its printed TR and RU parts)", r.printedScTotal(),
                r.printedScTrPart() + r.printedScRuPart()));
        c.add(new Check(finT, n, "transfer rate (0.5 x total of Table " + trT + ")", r.printedFinalTr(), 0.5 * r.printedTrTotal()));
        c.add(new Check(finT, n, "resource usage (0.2 x total of Table " + ruT + ")", r.printedFinalRu(), 0.2 * r.printedRuTotal()));
        c.add(new Check(finT, n, "scalability (0.3 x total of Table " + scT + ")", r.printedFinalSc(), 0.3 * r.printedScTotal()));
        c.add(new Check(finT, n, "total", r.printedFinal(), fin.total()));
        return new Result(r, fin, c);
    }
}
