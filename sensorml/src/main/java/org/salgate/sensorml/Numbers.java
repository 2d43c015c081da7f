package org.salgate.sensorml;

import java.math.BigDecimal;

/** xs:double and xs:integer text for argument bounds and values. */
final class Numbers {

    private Numbers() {}

    /** {@code d} as xs:double text, without a trailing {@code .0} for whole numbers. */
    static String format(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "INF" : "-INF";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    /** Parses xs:double text (already checked by the schema), or null for null. */
    static Double parseOrNull(String s) {
        if (s == null) {
            return null;
        }
        String t = s.strip();
        return switch (t) {
            case "INF", "+INF" -> Double.POSITIVE_INFINITY;
            case "-INF" -> Double.NEGATIVE_INFINITY;
            default -> Double.valueOf(t);
        };
    }

    /**
     * Why {@code value} is not a valid {@code type} within [min, max], as the end of a sentence
     * ("is not a whole number"), or null when it is valid.
     */
    static String checkValue(Argument.Type type, Double min, Double max, String value) {
        String v = value.strip();
        double d;
        switch (type) {
            case STRING:
                return null;
            case BOOLEAN:
                return "true".equals(v) || "false".equals(v) ? null : "is \"" + value + "\", not true or false";
            case INTEGER:
                try {
                    d = new BigDecimal(v).toBigIntegerExact().doubleValue();
                } catch (NumberFormatException | ArithmeticException e) {
                    return "is \"" + value + "\", not a whole number";
                }
                break;
            case DECIMAL:
                try {
                    d = new BigDecimal(v).doubleValue();
                } catch (NumberFormatException e) {
                    return "is \"" + value + "\", not a decimal number";
                }
                break;
            default:
                return null;
        }
        if (min != null && d < min) {
            return "is " + v + ", below the minimum " + format(min);
        }
        if (max != null && d > max) {
            return "is " + v + ", above the maximum " + format(max);
        }
        return null;
    }
}
