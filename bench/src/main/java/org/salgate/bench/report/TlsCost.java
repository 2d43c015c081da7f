package org.salgate.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.Security;
import org.salgate.bench.run.Stat;

/**
 * The cost of TLS, from a run that measured each transport in plain text and over TLS
 * ({@code --security plain,tls}): for each transport, its plain cell and its TLS twin side by side
 * with the ratio TLS/plain of their medians. Transport level: RTT (mean) of every data type at the
 * fewest clients, and 80 KB streaming (MB/s) at the fewest and the most clients; agent level: the
 * sensor list (calls/s) and dummy streaming (msg/s) at the fewest and the most clients.
 */
public final class TlsCost {

    /** The streamed size the transport-level rows take. */
    static final String STREAM_TYPE = "80 KB";

    /**
     * One comparison.
     *
     * @param ratio TLS median over plain median: above 1 for times means TLS is slower, below 1 for rates
     */
    public record Row(String transport, Method method, String dataType, int clients, String metric, Stat plain,
                      Stat tls, double ratio) {}

    private TlsCost() {}

    public static List<Row> rows(ResultSet results, Level level) {
        List<Row> rows = new ArrayList<>();
        for (String t : results.transports(level)) {
            if (t.equals(CellKey.RAW) || Security.of(t) != Security.PLAIN
                    || !results.transports(level).contains(Security.TLS.cellName(t))) {
                continue;
            }
            if (level == Level.TRANSPORT) {
                for (String type : List.of("Integer", "Object", "String")) {
                    add(rows, results, level, t, Method.RTT, type, Metrics.MEAN_US, false);
                }
                add(rows, results, level, t, Method.STREAM, STREAM_TYPE, Metrics.MB_PER_S, false);
                add(rows, results, level, t, Method.STREAM, STREAM_TYPE, Metrics.MB_PER_S, true);
            } else {
                for (boolean most : List.of(false, true)) {
                    add(rows, results, level, t, Method.AGENT_SYNC, "sensor list", Metrics.CALLS_PER_S, most);
                }
                for (boolean most : List.of(false, true)) {
                    add(rows, results, level, t, Method.AGENT_ASYNC, "dummy read", Metrics.MSGS_PER_S, most);
                }
            }
        }
        return rows;
    }

    /** Adds the row at the fewest (or most) client count measured for both, when there is one. */
    private static void add(List<Row> rows, ResultSet results, Level level, String transport, Method method,
                            String type, String metric, boolean most) {
        TreeSet<Integer> counts = new TreeSet<>(results.clientCounts(level, method));
        if (counts.isEmpty() || most && counts.size() < 2) {
            return;
        }
        int clients = most ? counts.last() : counts.first();
        CellKey plainKey = new CellKey(level, transport, method, type, clients);
        CellKey tlsKey = new CellKey(level, Security.TLS.cellName(transport), method, type, clients);
        if (!results.keys().contains(plainKey) || !results.keys().contains(tlsKey)) {
            return;
        }
        Stat plain = results.stat(plainKey, metric);
        Stat tls = results.stat(tlsKey, metric);
        double ratio = tls.median() / plain.median();
        rows.add(new Row(transport, method, type, clients, metric, plain, tls, Double.isFinite(ratio) ? ratio : Double.NaN));
    }

    /** The Markdown section, or an empty string when the run has no plain/TLS pairs. */
    public static String markdown(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder("\n## Cost of TLS\n\n");
        s.append("Each transport in plain text and over TLS (a self-signed certificate made for the run, pinned by the ")
                .append("clients), measured in the same run, each in its own server JVM. Median [min-max] over the ")
                .append("repetitions; TLS/plain is the ratio of the medians (for a time above 1 means slower, for a ")
                .append("rate below 1 means slower).\n\n")
                .append("| transport | method | type | clients | metric | plain | TLS | TLS/plain |\n")
                .append("|---|---|---|---:|---|---:|---:|---:|\n");
        for (Row r : rows) {
            s.append("| ").append(r.transport()).append(" | ").append(r.method().id()).append(" | ")
                    .append(r.dataType()).append(" | ").append(r.clients()).append(" | ").append(r.metric())
                    .append(" | ").append(stat(r.plain())).append(" | ").append(stat(r.tls())).append(" | ")
                    .append(Double.isFinite(r.ratio()) ? String.format(Locale.ROOT, "%.2f", r.ratio()) : "n/a")
                    .append(" |\n");
        }
        return s.toString();
    }

    private static String stat(Stat st) {
        String m = MarkdownReport.fmt(st.median());
        return st.n() > 1 ? m + " [" + MarkdownReport.fmt(st.min()) + "-" + MarkdownReport.fmt(st.max()) + "]" : m;
    }
}
