package org.salgate.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Every cell result of a run, with the medians over repetitions that scoring and reports use. */
public final class ResultSet {

    private final List<CellResult> results = new ArrayList<>();

    public ResultSet() {}

    public ResultSet(List<CellResult> results) {
        this.results.addAll(results);
    }

    public synchronized void add(CellResult r) {
        results.add(r);
    }

    public synchronized List<CellResult> all() {
        return List.copyOf(results);
    }

    /** The cells measured, in the order first seen. */
    public synchronized Set<CellKey> keys() {
        Set<CellKey> keys = new LinkedHashSet<>();
        results.forEach(r -> keys.add(r.key()));
        return keys;
    }

    /** Median and spread of a metric over the repetitions of a cell. */
    public synchronized Stat stat(CellKey key, String metric) {
        List<Double> v = new ArrayList<>();
        for (CellResult r : results) {
            if (r.key().equals(key)) {
                v.add(r.get(metric));
            }
        }
        return Stat.of(v);
    }

    /** The metric names recorded for a cell, in order. */
    public synchronized Set<String> metrics(CellKey key) {
        Set<String> names = new LinkedHashSet<>();
        results.stream().filter(r -> r.key().equals(key)).forEach(r -> names.addAll(r.metrics().keySet()));
        return names;
    }

    /** The transports seen at a level, in the order first measured. */
    public synchronized List<String> transports(Level level) {
        Set<String> t = new LinkedHashSet<>();
        results.stream().filter(r -> r.key().level() == level).forEach(r -> t.add(r.key().transport()));
        return List.copyOf(t);
    }

    /** Client counts measured for a method at a level. */
    public synchronized TreeSet<Integer> clientCounts(Level level, Method method) {
        TreeSet<Integer> c = new TreeSet<>();
        results.stream().filter(r -> r.key().level() == level && r.key().method() == method)
                .forEach(r -> c.add(r.key().clients()));
        return c;
    }

    /**
     * Per client count, the median of {@code metric} for each data type, by type name.
     */
    public synchronized Map<Integer, Map<String, Double>> medians(Level level, String transport, Method method,
                                                                  String metric) {
        Map<Integer, Map<String, Double>> out = new LinkedHashMap<>();
        for (CellKey k : keys()) {
            if (k.level() == level && k.transport().equals(transport) && k.method() == method) {
                out.computeIfAbsent(k.clients(), c -> new LinkedHashMap<>()).put(k.dataType(), stat(k, metric).median());
            }
        }
        return out;
    }
}
