package org.salgate.mqtt.report;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How a stream's readings become messages: every reading (the default), by exception (a value
 * beyond a deadband of the last one sent, with an optional heartbeat), or one aggregate per window.
 * Made with {@link #everyReading()}, {@link #byException} or {@link #window}; immutable.
 *
 * @param deadband how far a value must move from the last value sent to be sent, or null
 * @param heartbeat the longest silence after which the latest reading is sent anyway, or null (needs a deadband)
 * @param window the length of an aggregation window, or null (excludes the other two)
 */
public record ReportPolicy(Deadband deadband, Duration heartbeat, Duration window) {

    private static final ReportPolicy EVERY_READING = new ReportPolicy(null, null, null);

    /**
     * A deadband: a numeric value is sent when it differs from the last value sent by more than
     * {@code amount}, or, when {@code percent}, by more than {@code amount} % of that value.
     */
    public record Deadband(double amount, boolean percent) {
        public Deadband {
            if (!Double.isFinite(amount) || amount < 0) {
                throw new IllegalArgumentException("a deadband must be a number of 0 or more, got " + amount);
            }
        }

        /** Whether {@code value} is beyond this deadband of {@code last}. */
        boolean exceeded(double last, double value) {
            if (Double.isNaN(last) || Double.isNaN(value)) {
                return Double.isNaN(last) != Double.isNaN(value);
            }
            double limit = percent ? amount * Math.abs(last) / 100 : amount;
            return Math.abs(value - last) > limit;
        }

        @Override
        public String toString() {
            return ReportPolicy.number(amount) + (percent ? "%" : "");
        }
    }

    public ReportPolicy {
        if (heartbeat != null && (heartbeat.isNegative() || heartbeat.isZero())) {
            throw new IllegalArgumentException("a heartbeat must be positive, got " + heartbeat);
        }
        if (window != null && (window.isNegative() || window.isZero())) {
            throw new IllegalArgumentException("a window must be positive, got " + window);
        }
        if (heartbeat != null && deadband == null) {
            throw new IllegalArgumentException("heartbeat= goes with a deadband: without one every reading is sent"
                    + " anyway (deadband=0 sends every change)");
        }
        if (window != null && (deadband != null || heartbeat != null)) {
            throw new IllegalArgumentException("window= stands alone: a window sends one aggregate per window,"
                    + " so a deadband or heartbeat has nothing to act on");
        }
    }

    /** Every reading sent as it comes: what a stream without options does. */
    public static ReportPolicy everyReading() {
        return EVERY_READING;
    }

    /** Report by exception: a value beyond {@code deadband} of the last one sent, and after {@code heartbeat} (or null) of silence. */
    public static ReportPolicy byException(Deadband deadband, Duration heartbeat) {
        if (deadband == null) {
            throw new IllegalArgumentException("report by exception needs a deadband");
        }
        return new ReportPolicy(deadband, heartbeat, null);
    }

    /** One aggregate (count, min, max, mean) of the numeric readings of every {@code length}. */
    public static ReportPolicy window(Duration length) {
        if (length == null) {
            throw new IllegalArgumentException("a window needs a length");
        }
        return new ReportPolicy(null, null, length);
    }

    /** Whether every reading is sent as it comes. */
    public boolean isEveryReading() {
        return deadband == null && window == null;
    }

    /**
     * A new filter for one stream under this policy.
     *
     * @param stats where the filter counts what it sends and suppresses (shared by an output's streams)
     * @param nanoClock a monotonic clock in nanoseconds, {@code System::nanoTime} outside tests
     */
    public ReportFilter filter(ReportStats stats, LongSupplier nanoClock) {
        return new ReportFilter(this, stats, nanoClock);
    }

    /** The options as written after a stream: {@code deadband=0.5 heartbeat=60s}, {@code window=10s}; empty for every reading. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        if (deadband != null) {
            s.append("deadband=").append(deadband);
        }
        if (heartbeat != null) {
            s.append(" heartbeat=").append(heartbeat.toMillis()).append("ms");
        }
        if (window != null) {
            s.append("window=").append(window.toMillis()).append("ms");
        }
        return s.toString();
    }

    static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
