package org.salgate.bench.report;

import java.util.ArrayList;
import java.util.List;

import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.ResultSet;

/**
 * Every transport held against the framework-free socket ceiling measured in the same run: the
 * share of the ceiling's rate (or, for round trips, the ceiling's time over the transport's), in percent.
 */
public final class Ceiling {

    /** One comparison: {@code percent} of the ceiling, 100 % = as fast as raw sockets. */
    public record Row(String transport, Method method, String dataType, int clients, double transportValue,
                      double ceilingValue, String metric, double percent) {}

    private Ceiling() {}

    public static List<Row> rows(ResultSet results) {
        List<Row> rows = new ArrayList<>();
        for (CellKey raw : results.keys()) {
            if (!raw.transport().equals(CellKey.RAW)) {
                continue;
            }
            String metric = raw.method().metric();
            double ceiling = results.stat(raw, metric).median();
            for (String t : results.transports(Level.TRANSPORT)) {
                if (t.equals(CellKey.RAW)) {
                    continue;
                }
                CellKey k = new CellKey(raw.level(), t, raw.method(), raw.dataType(), raw.clients());
                if (!results.keys().contains(k)) {
                    continue;
                }
                double v = results.stat(k, metric).median();
                double pct = raw.method() == Method.RTT ? 100 * ceiling / v : 100 * v / ceiling;
                rows.add(new Row(t, raw.method(), raw.dataType(), raw.clients(), v, ceiling, metric,
                        Double.isFinite(pct) ? pct : Double.NaN));
            }
        }
        return rows;
    }

    /** The unit of a ceiling metric, for tables. */
    public static String unit(String metric) {
        return switch (metric) {
            case Metrics.MEAN_US -> "us mean RTT";
            case Metrics.CALLS_PER_S -> "calls/s";
            case Metrics.MSGS_PER_S -> "msg/s";
            default -> metric;
        };
    }
}
