package org.salgate.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Sets the cells of two runs side by side: the same transport, method, payload and client count,
 * one metric, the median and [min-max] over each run's repetitions. A difference counts only when
 * the two ranges do not overlap: the repetitions of one run are its run-to-run spread.
 */
public final class RunComparison {

    /** One cell measured in both runs. */
    public record Row(String transport, String method, String type, int clients, String metric,
            Stat before, Stat after) {

        /** after / before, from the medians. */
        public double ratio() {
            return before.median() == 0 ? Double.NaN : after.median() / before.median();
        }

        /** "higher", "lower" or "within spread" (the [min-max] ranges overlap). */
        public String verdict() {
            if (after.min() > before.max()) {
                return "higher";
            }
            if (after.max() < before.min()) {
                return "lower";
            }
            return "within spread";
        }
    }

    /** A median over repetitions with its range. */
    public record Stat(double median, double min, double max, int reps) {
        static Stat of(JsonNode n) {
            return new Stat(n.path("median").asDouble(), n.path("min").asDouble(), n.path("max").asDouble(),
                    n.path("reps").asInt());
        }
    }

    private RunComparison() {}

    /**
     * The cells present in both summaries that carry one of the metrics, in the order of the first
     * summary; for each cell the first metric it has is used.
     */
    public static List<Row> rows(JsonNode before, JsonNode after, List<String> metrics) {
        Map<String, JsonNode> afterCells = new LinkedHashMap<>();
        after.path("cells").forEach(c -> afterCells.put(key(c), c));
        List<Row> rows = new ArrayList<>();
        for (JsonNode b : before.path("cells")) {
            JsonNode a = afterCells.get(key(b));
            if (a == null) {
                continue;
            }
            for (String metric : metrics) {
                JsonNode bm = b.path("metrics").path(metric);
                JsonNode am = a.path("metrics").path(metric);
                if (!bm.isMissingNode() && !am.isMissingNode()) {
                    rows.add(new Row(b.path("transport").asText(), b.path("method").asText(), b.path("type").asText(),
                            b.path("clients").asInt(), metric, Stat.of(bm), Stat.of(am)));
                    break;
                }
            }
        }
        return rows;
    }

    /** The rows as a Markdown table. */
    public static String markdown(List<Row> rows, String beforeLabel, String afterLabel) {
        StringBuilder s = new StringBuilder();
        s.append("| transport | method | payload | clients | metric | ").append(beforeLabel).append(" | ")
                .append(afterLabel).append(" | after/before | |\n");
        s.append("|---|---|---|---:|---|---:|---:|---:|---|\n");
        for (Row r : rows) {
            s.append("| ").append(r.transport()).append(" | ").append(r.method()).append(" | ").append(r.type())
                    .append(" | ").append(r.clients()).append(" | ").append(r.metric()).append(" | ")
                    .append(format(r.before())).append(" | ").append(format(r.after())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f", r.ratio())).append(" | ").append(r.verdict())
                    .append(" |\n");
        }
        return s.toString();
    }

    private static String format(Stat s) {
        return String.format(Locale.ROOT, "%s [%s-%s]", number(s.median()), number(s.min()), number(s.max()));
    }

    private static String number(double v) {
        double a = Math.abs(v);
        if (a >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2f M", v / 1_000_000);
        }
        if (a >= 10_000) {
            return String.format(Locale.ROOT, "%.1f k", v / 1_000);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String key(JsonNode c) {
        return c.path("transport").asText() + '|' + c.path("method").asText() + '|' + c.path("type").asText() + '|'
                + c.path("clients").asInt();
    }
}
