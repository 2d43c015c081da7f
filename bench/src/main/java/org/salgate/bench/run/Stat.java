package org.salgate.bench.run;

import java.util.Arrays;
import java.util.List;

/** The median and the spread (min-max) of one metric over repetitions. */
public record Stat(double median, double min, double max, int n) {

    public static Stat of(List<Double> values) {
        double[] v = values.stream().filter(x -> !Double.isNaN(x)).mapToDouble(Double::doubleValue).toArray();
        if (v.length == 0) {
            return new Stat(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        Arrays.sort(v);
        int m = v.length / 2;
        double median = v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
        return new Stat(median, v[0], v[v.length - 1], v.length);
    }
}
