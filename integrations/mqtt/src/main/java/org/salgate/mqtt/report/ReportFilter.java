package org.salgate.mqtt.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * One stream's report-by-exception and aggregation state: fed the stream's readings in order, it
 * says what to publish for each ({@link #offer}). Any northbound output can use it: it knows
 * readings and time, not topics nor payloads.
 *
 * <p>It has no timer: the stream's readings are its ticks. A heartbeat or a window's end is
 * noticed at the first reading at or after it, so at most one stream interval late, and a window
 * is sent when the first reading after it arrives. This keeps the state on the thread that
 * delivers the readings, and makes the filter exact under a test's clock.
 *
 * <p>Rules:
 * <ul>
 *   <li>a reading whose status differs from the last one sent (OK to ERROR, DISCONNECTED,
 *       UNAVAILABLE, and back) is sent at once, whatever the policy;</li>
 *   <li>by exception: the first reading is sent; then a numeric value moving beyond the deadband
 *       of the last value sent, a text or bytes value differing from it, and, once nothing was sent
 *       for the heartbeat's length, the latest reading;</li>
 *   <li>window: numeric OK readings are folded into one {@link Report.Window} per window (none
 *       for a window without any); text and bytes values are sent on change.</li>
 * </ul>
 * Thread-safe; the readings of one stream are expected in order.
 */
public final class ReportFilter {

    private final ReportPolicy policy;
    private final ReportStats stats;
    private final LongSupplier clock;
    private final long heartbeatNanos;
    private final long windowNanos;

    private Reading lastSent;
    private long lastSentAt;
    /** Window mode: the status last sent, OK until a failure was sent. */
    private Reading.Status windowStatus = Reading.Status.OK;
    private boolean windowOpen;
    private long windowStartNanos;
    private long windowStartMicros;
    private long count;
    private double min;
    private double max;
    private double sum;
    private String unit = "";

    ReportFilter(ReportPolicy policy, ReportStats stats, LongSupplier nanoClock) {
        this.policy = policy;
        this.stats = stats;
        this.clock = nanoClock;
        this.heartbeatNanos = policy.heartbeat() == null ? 0 : policy.heartbeat().toNanos();
        this.windowNanos = policy.window() == null ? 0 : policy.window().toNanos();
    }

    /** The stream's next reading; returns what to publish now, in order (often nothing). */
    public synchronized List<Report> offer(Reading r) {
        if (policy.isEveryReading()) {
            stats.countSent(1);
            return List.of(new Report.Sent(r, Report.Reason.EVERY));
        }
        long now = clock.getAsLong();
        List<Report> out = windowNanos > 0 ? inWindow(r, now) : byException(r, now);
        stats.countSent(out.size());
        if (out.stream().noneMatch(m -> m instanceof Report.Sent s && s.reading() == r)) {
            stats.countSuppressed();
        }
        return out;
    }

    private List<Report> byException(Reading r, long now) {
        Report.Reason why = null;
        if (lastSent == null) {
            why = Report.Reason.FIRST;
        } else if (r.status() != lastSent.status()) {
            why = Report.Reason.STATUS;
        } else if (r.status() == Reading.Status.OK && changed(lastSent.value(), r.value())) {
            why = Report.Reason.CHANGE;
        } else if (heartbeatNanos > 0 && now - lastSentAt >= heartbeatNanos) {
            why = Report.Reason.HEARTBEAT;
        }
        if (why == null) {
            return List.of();
        }
        lastSent = r;
        lastSentAt = now;
        return List.of(new Report.Sent(r, why));
    }

    private boolean changed(Value last, Value now) {
        if (isNumber(last) && isNumber(now)) {
            return policy.deadband().exceeded(number(last), number(now));
        }
        return !last.equals(now);
    }

    private List<Report> inWindow(Reading r, long now) {
        List<Report> out = new ArrayList<>(2);
        if (!windowOpen) {
            windowOpen = true;
            windowStartNanos = now;
            windowStartMicros = r.timestampMicros();
        } else if (now - windowStartNanos >= windowNanos) {
            if (count > 0) {
                out.add(new Report.Window(r.sensorId(), windowStartMicros, policy.window(), count, min, max,
                        sum / count, unit));
            }
            count = 0;
            long windows = (now - windowStartNanos) / windowNanos;
            windowStartNanos += windows * windowNanos;
            windowStartMicros += windows * (windowNanos / 1000);
        }
        if (r.status() != windowStatus) {
            windowStatus = r.status();
            lastSent = r;
            out.add(new Report.Sent(r, Report.Reason.STATUS));
        } else if (r.status() == Reading.Status.OK && !isNumber(r.value())
                && (lastSent == null || lastSent.status() != Reading.Status.OK || !lastSent.value().equals(r.value()))) {
            out.add(new Report.Sent(r, lastSent == null ? Report.Reason.FIRST : Report.Reason.CHANGE));
            lastSent = r;
        }
        if (r.status() == Reading.Status.OK && isNumber(r.value())) {
            double v = number(r.value());
            min = count == 0 ? v : Math.min(min, v);
            max = count == 0 ? v : Math.max(max, v);
            sum = count == 0 ? v : sum + v;
            count++;
            unit = r.unit();
        }
        return out;
    }

    private static boolean isNumber(Value v) {
        return v instanceof Value.Num || v instanceof Value.Int;
    }

    private static double number(Value v) {
        return v instanceof Value.Num n ? n.value() : ((Value.Int) v).value();
    }
}
