package org.salgate.bench.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.Stat;
import org.salgate.bench.score.Direction;

/**
 * Each repetition of a transport set against the baseline's repetition of the same round, for a
 * run whose repetitions took turns across the servers ({@code --interleave}). A round's cells ran
 * minutes apart at most, so a slow spell of the machine weighs on both sides of its ratio, where
 * the ratio of two medians taken at different times carries it whole.
 */
public final class PairedRatios {

    /**
     * One transport's cell against the baseline's.
     *
     * @param ratio the transport's metric over the baseline's, per round: median [min-max]
     * @param better in how many rounds the transport did better than the baseline (lower time, higher rate)
     */
    public record Row(CellKey key, String metric, Stat ratio, int better) {}

    private PairedRatios() {}

    /** The rows of every cell of another transport that the baseline also measured, in the order of the results. */
    public static List<Row> rows(ResultSet results, String baseline) {
        Map<CellKey, Map<Integer, Double>> byRound = new HashMap<>();
        for (CellResult r : results.all()) {
            double v = r.error() == null ? r.get(r.key().method().metric()) : Double.NaN;
            if (Double.isFinite(v) && v > 0) {
                byRound.computeIfAbsent(r.key(), k -> new HashMap<>()).put(r.rep(), v);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (CellKey k : results.keys()) {
            if (k.transport().equals(baseline) || k.transport().equals(CellKey.RAW)) {
                continue;
            }
            Map<Integer, Double> base = byRound.get(new CellKey(k.level(), baseline, k.method(), k.dataType(), k.clients()));
            Map<Integer, Double> mine = byRound.get(k);
            if (base == null || mine == null) {
                continue;
            }
            List<Double> ratios = new ArrayList<>();
            int better = 0;
            for (var e : mine.entrySet()) {
                Double b = base.get(e.getKey());
                if (b != null) {
                    double ratio = e.getValue() / b;
                    ratios.add(ratio);
                    if (k.method().direction() == Direction.LOWER_IS_BETTER ? ratio < 1 : ratio > 1) {
                        better++;
                    }
                }
            }
            if (!ratios.isEmpty()) {
                rows.add(new Row(k, k.method().metric(), Stat.of(ratios), better));
            }
        }
        return rows;
    }

    /** The report's section, empty without rows. */
    public static String markdown(List<Row> rows, String baseline) {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder("\n## Paired with the baseline, round by round\n\n")
                .append("Every server ran at once and the repetitions took turns across them, so each repetition of a ")
                .append("transport has a twin of the baseline's measured in the same round. Ratio: the transport's ")
                .append("metric over ").append(baseline).append("'s in the same round, median [min-max] over the ")
                .append("rounds; below 1 is better for times, above 1 for rates.\n\n")
                .append("| transport | method | type | clients | metric | ratio | better in |\n")
                .append("|---|---|---|---:|---|---:|---:|\n");
        for (Row r : rows) {
            Stat st = r.ratio();
            s.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %.2f [%.2f-%.2f] | %d of %d |%n",
                    r.key().transport(), r.key().method().id(), r.key().dataType(), r.key().clients(), r.metric(),
                    st.median(), st.min(), st.max(), r.better(), st.n()));
        }
        return s.toString();
    }
}
