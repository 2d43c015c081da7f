package org.salgate.bench.score;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One test method's ratio against the baseline, computed the paper's way (BENCH-SPEC section 3):
 * at each client count the per-type values are summed ("cumulative"), the ratio of the sums is
 * taken, and the method's ratio is the mean of those per-count ratios.
 *
 * @param perClients the ratio at each client count, in percent
 * @param mean the mean over the client counts, in percent (NaN when no count could be compared)
 * @param scalability the scalability ratio from the smallest to the largest count, in percent (NaN with fewer than two counts)
 */
public record MethodRatio(SortedMap<Integer, Double> perClients, double mean, double scalability) {

    public MethodRatio {
        perClients = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(perClients));
    }

    /**
     * Compares a transport with the baseline.
     *
     * @param transport per client count, the value of each data type (same types, same order as the baseline)
     * @param baseline the same for the baseline
     * @param direction how the metric improves
     * @throws IllegalArgumentException if a client count has a different number of types on each side
     */
    public static MethodRatio of(Map<Integer, List<Double>> transport, Map<Integer, List<Double>> baseline,
                                 Direction direction) {
        SortedMap<Integer, Double> ratios = new TreeMap<>();
        SortedMap<Integer, Double> tSums = new TreeMap<>();
        SortedMap<Integer, Double> bSums = new TreeMap<>();
        for (var e : transport.entrySet()) {
            List<Double> b = baseline.get(e.getKey());
            if (b == null) {
                continue;
            }
            if (b.size() != e.getValue().size()) {
                throw new IllegalArgumentException("client count " + e.getKey() + " has " + e.getValue().size()
                        + " data types for the transport but " + b.size() + " for the baseline");
            }
            double t = sum(e.getValue());
            double s = sum(b);
            tSums.put(e.getKey(), t);
            bSums.put(e.getKey(), s);
            ratios.put(e.getKey(), direction.ratio(t, s));
        }
        double mean = ratios.values().stream().filter(Double::isFinite).mapToDouble(Double::doubleValue)
                .average().orElse(Double.NaN);
        double scal = Double.NaN;
        if (tSums.size() >= 2) {
            int small = tSums.firstKey();
            int large = tSums.lastKey();
            scal = direction.scalability(tSums.get(small), tSums.get(large), bSums.get(small), bSums.get(large));
        }
        return new MethodRatio(ratios, mean, scal);
    }

    private static double sum(List<Double> values) {
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s;
    }
}
