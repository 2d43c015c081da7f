package org.salgate.bench.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One repetition of one cell: its metrics by name (see {@link Metrics}), and the first error if any.
 *
 * @param rep the repetition, from 1
 */
public record CellResult(CellKey key, int rep, Map<String, Double> metrics, String error) {

    public CellResult {
        Objects.requireNonNull(key, "key");
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** The metric's value, or NaN when it was not recorded. */
    public double get(String metric) {
        Double v = metrics.get(metric);
        return v == null ? Double.NaN : v;
    }
}
