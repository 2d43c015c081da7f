package org.salgate.bench.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repetitions of one cell, summarized over those that succeeded.
 *
 * @param transport the transport's name
 * @param codec the payload format's name
 * @param medianMillis median time of the successful repetitions; NaN when none succeeded
 * @param minMillis fastest successful repetition
 * @param maxMillis slowest successful repetition
 * @param bytesPerCall mean request envelope bytes per call
 * @param serverCpuPercent mean server CPU over the successful repetitions
 * @param ok successful repetitions
 * @param failed failed repetitions
 * @param firstError the first failure's message, or null
 */
public record CellSummary(String transport, String codec, double medianMillis, double minMillis, double maxMillis,
                          double bytesPerCall, double serverCpuPercent, int ok, int failed, String firstError) {

    /** Groups runs by (transport, codec), keeping their first-seen order. */
    public static List<CellSummary> of(List<CellRun> runs) {
        Map<String, List<CellRun>> cells = new LinkedHashMap<>();
        for (CellRun r : runs) {
            cells.computeIfAbsent(r.transport() + "\u0000" + r.codec(), k -> new ArrayList<>()).add(r);
        }
        List<CellSummary> out = new ArrayList<>();
        for (List<CellRun> c : cells.values()) {
            out.add(summarize(c));
        }
        return out;
    }

    private static CellSummary summarize(List<CellRun> runs) {
        List<CellRun> good = runs.stream().filter(CellRun::ok).toList();
        double[] ms = good.stream().mapToDouble(CellRun::millis).sorted().toArray();
        String error = runs.stream().filter(r -> !r.ok()).map(CellRun::error).findFirst().orElse(null);
        CellRun first = runs.get(0);
        return new CellSummary(first.transport(), first.codec(), median(ms),
                ms.length == 0 ? Double.NaN : ms[0], ms.length == 0 ? Double.NaN : ms[ms.length - 1],
                good.stream().mapToDouble(CellRun::bytesPerCall).average().orElse(Double.NaN),
                good.stream().mapToDouble(CellRun::serverCpuPercent).filter(v -> !Double.isNaN(v)).average()
                        .orElse(Double.NaN),
                good.size(), runs.size() - good.size(), error);
    }

    /** The median of sorted values; NaN for none. */
    static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
