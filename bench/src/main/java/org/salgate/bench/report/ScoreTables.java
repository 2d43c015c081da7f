package org.salgate.bench.report;

import java.util.List;
import java.util.Locale;

import org.salgate.bench.score.ScoreCard;

/** Renders score cards as the paper's Tables I-IV (transport level) or V-VIII (agent level), in Markdown. */
public final class ScoreTables {

    private ScoreTables() {}

    /** Tables I-IV. */
    public static String transportLevel(List<ScoreCard> cards, String baseline) {
        String b = baselineNote(baseline);
        StringBuilder s = new StringBuilder();
        s.append("### Table I - weighted transfer rate").append(b).append("\n\n")
                .append("| | RTT | TP | Streaming | weighted sync | weighted async | total |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (ScoreCard c : cards) {
            row(s, c.name(), c.rtt(), c.tp(), c.tr().asyncRatio(), c.tr().syncWeighted(), c.tr().asyncWeighted(),
                    c.tr().total());
        }
        resourceAndRest(s, cards, b, "II", "III", "IV");
        return s.toString();
    }

    /** Tables V-VIII. */
    public static String agentLevel(List<ScoreCard> cards, String baseline) {
        String b = baselineNote(baseline);
        StringBuilder s = new StringBuilder();
        s.append("### Table V - weighted transfer rate in the agent").append(b).append("\n\n")
                .append("| | sync (sensor list) | async (streaming) | weighted sync | weighted async | total |\n")
                .append("|---|---:|---:|---:|---:|---:|\n");
        for (ScoreCard c : cards) {
            row(s, c.name(), c.tr().syncRatio(), c.tr().asyncRatio(), c.tr().syncWeighted(), c.tr().asyncWeighted(),
                    c.tr().total());
        }
        resourceAndRest(s, cards, b, "VI", "VII", "VIII");
        return s.toString();
    }

    private static void resourceAndRest(StringBuilder s, List<ScoreCard> cards, String b, String ru, String sc,
                                        String fin) {
        s.append("\n### Table ").append(ru).append(" - weighted resource usage").append(b).append("\n\n")
                .append("| | CPU sync | memory sync | CPU async | memory async | weighted sync | weighted async | total |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ScoreCard c : cards) {
            row(s, c.name(), c.ru().cpuSync(), c.ru().memSync(), c.ru().cpuAsync(), c.ru().memAsync(),
                    c.ru().syncWeighted(), c.ru().asyncWeighted(), c.ru().total());
        }
        s.append("\n### Table ").append(sc).append(" - weighted scalability").append(b).append("\n\n")
                .append("| | TR sync (x0.3) | TR async (x0.7) | RU sync (x0.3) | RU async (x0.7) | TR (5/7) | RU (2/7) | total |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ScoreCard c : cards) {
            row(s, c.name(), c.sc().trSyncWeighted(), c.sc().trAsyncWeighted(), c.sc().ruSyncWeighted(),
                    c.sc().ruAsyncWeighted(), c.sc().trPart(), c.sc().ruPart(), c.fin().scalability());
        }
        s.append("\n### Table ").append(fin).append(" - final weighting").append(b).append("\n\n")
                .append("| | transfer rate (x0.5) | resource usage (x0.2) | scalability (x0.3) | total |\n")
                .append("|---|---:|---:|---:|---:|\n");
        for (ScoreCard c : cards) {
            row(s, c.name(), c.fin().trWeighted(), c.fin().ruWeighted(), c.fin().scWeighted(), c.fin().total());
        }
    }

    private static String baselineNote(String baseline) {
        return " (" + baseline + " = 100 %)";
    }

    private static void row(StringBuilder s, String name, double... values) {
        s.append("| ").append(name);
        for (double v : values) {
            s.append(" | ").append(pct(v));
        }
        s.append(" |\n");
    }

    /** A percentage to two decimals, or "n/a" when it could not be measured. */
    public static String pct(double v) {
        // rounded to 1e-9 first so that a product like 0.3 x 105.85 = 31.754999... prints as the paper's 31.76
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f %%", Math.round(v * 1e9) / 1e9) : "n/a";
    }
}
