package org.salgate.bench.codec.run;

import java.util.Arrays;

/** The median, min and max of a case's rounds. */
public record Spread(double median, double min, double max) {

    /** Of the given round values; NaN throughout if there are none. */
    public static Spread of(double[] values) {
        if (values.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Spread(median, v[0], v[n - 1]);
    }
}
