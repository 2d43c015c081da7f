package org.salgate.bench.codec.run;

import java.util.Locale;

/** Number formats of the codec report. */
final class Units {

    private Units() {}

    /** A time in nanoseconds, shown in ns, us or ms with three significant digits. */
    static String time(double ns) {
        if (Double.isNaN(ns)) {
            return "-";
        }
        if (ns < 1_000) {
            return sig(ns) + " ns";
        }
        if (ns < 1_000_000) {
            return sig(ns / 1e3) + " us";
        }
        return sig(ns / 1e6) + " ms";
    }

    /** Bytes per operation, or n/a when the JVM could not count them. */
    static String alloc(double bytes) {
        if (bytes < 0 || Double.isNaN(bytes)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%,d B", Math.round(bytes));
    }

    static String bytes(long b) {
        return b < 0 ? "-" : String.format(Locale.ROOT, "%,d", b);
    }

    static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static String sig(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
