package org.salgate.mqtt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/** The report filter fed readings one second apart under a test clock. */
class ReportFilterTest {

    private static final long SECOND_NANOS = 1_000_000_000L;
    private static final long SECOND_MICROS = 1_000_000L;
    private static final long EPOCH_MICROS = 1_800_000_000_000_000L;

    private final ReportStats stats = new ReportStats();
    /** The test clock, in seconds; the filter sees it in nanoseconds. */
    private long seconds;
    private long sequence;

    private ReportFilter filter(ReportPolicy policy) {
        return policy.filter(stats, () -> seconds * SECOND_NANOS);
    }

    private Reading ok(Value v) {
        return Reading.ok("S", EPOCH_MICROS + seconds * SECOND_MICROS, sequence++, v);
    }

    private Reading failed(Reading.Status status) {
        return new Reading("S", EPOCH_MICROS + seconds * SECOND_MICROS, sequence++, Value.absent(), status, "down");
    }

    /** Feeds one reading a second, from the current second on, and returns the readings' values that were sent. */
    private List<String> feed(ReportFilter f, List<Reading> out, Value... values) {
        List<String> sent = new ArrayList<>();
        for (Value v : values) {
            for (Report r : f.offer(ok(v))) {
                Report.Sent s = assertInstanceOf(Report.Sent.class, r);
                sent.add(s.reading().value() + (s.reason() == Report.Reason.HEARTBEAT ? "h" : ""));
                out.add(s.reading());
            }
            seconds++;
        }
        return sent;
    }

    private static Value[] ramp(double step, int n) {
        Value[] values = new Value[n];
        for (int i = 0; i < n; i++) {
            values[i] = Value.of(i * step);
        }
        return values;
    }

    @Test
    void aRampPublishesExactlyTheStepsBeyondTheDeadbandAndTheHeartbeats() {
        ReportFilter f = filter(ReportPolicy.byException(new ReportPolicy.Deadband(1.0, false), Duration.ofSeconds(6)));
        List<Reading> out = new ArrayList<>();
        // 0.25 a second from 0 to 4 (t = 0..16), then flat at 4 (t = 17..30).
        List<Value> values = new ArrayList<>(List.of(ramp(0.25, 17)));
        for (int i = 0; i < 14; i++) {
            values.add(Value.of(4.0));
        }

        List<String> sent = feed(f, out, values.toArray(Value[]::new));

        // 1.0 is not more than 1 from 0, 1.25 is; likewise 2.5 from 1.25 and 3.75 from 2.5, each 5 s
        // apart, within the heartbeat. 4 is only 0.25 from 3.75: the heartbeat sends it 6 s after
        // 3.75 (t = 21), and 6 s after that (t = 27).
        assertEquals(List.of("0", "1.25", "2.5", "3.75", "4h", "4h"), sent);
        assertEquals(List.of(0L, 5L, 10L, 15L, 21L, 27L), out.stream().map(Reading::sequence).toList());
        assertEquals(6, stats.sent());
        assertEquals(25, stats.suppressed());
    }

    @Test
    void withoutAHeartbeatAFlatValueIsSentOnce() {
        ReportFilter f = filter(ReportPolicy.byException(new ReportPolicy.Deadband(0, false), null));
        List<String> sent = feed(f, new ArrayList<>(), Value.of(5L), Value.of(5L), Value.of(5L), Value.of(6L),
                Value.of(6L), Value.of(5L));
        assertEquals(List.of("5", "6", "5"), sent);
    }

    @Test
    void aPercentDeadbandIsRelativeToTheLastValueSent() {
        ReportFilter f = filter(ReportPolicy.byException(new ReportPolicy.Deadband(10, true), null));
        List<String> sent = feed(f, new ArrayList<>(), Value.of(100.0), Value.of(109.0), Value.of(110.0),
                Value.of(111.0), Value.of(121.0), Value.of(122.5), Value.of(99.0));
        // 10 % of 100 is 10: 110 is not beyond it, 111 is; then 10 % of 111 is 11.1: 121 is not, 122.5 is.
        assertEquals(List.of("100", "111", "122.5", "99"), sent);
    }

    @Test
    void aStatusChangeIsSentAtOnceAndRepeatedFailuresAreNot() {
        ReportFilter f = filter(ReportPolicy.byException(new ReportPolicy.Deadband(100, false), null));
        List<Report.Reason> reasons = new ArrayList<>();
        List<Reading> in = List.of(ok(Value.of(1.0)), failed(Reading.Status.ERROR), failed(Reading.Status.ERROR),
                failed(Reading.Status.DISCONNECTED), ok(Value.of(1.5)), ok(Value.of(2.0)));
        for (Reading r : in) {
            f.offer(r).forEach(m -> reasons.add(((Report.Sent) m).reason()));
        }
        assertEquals(List.of(Report.Reason.FIRST, Report.Reason.STATUS, Report.Reason.STATUS, Report.Reason.STATUS),
                reasons);
        assertEquals(2, stats.suppressed());
    }

    @Test
    void textIsSentOnChange() {
        ReportFilter f = filter(ReportPolicy.byException(new ReportPolicy.Deadband(5, false), null));
        List<String> sent = feed(f, new ArrayList<>(), Value.of("idle"), Value.of("idle"), Value.of("run"),
                Value.of("run"), Value.of(new byte[] {1}), Value.of(new byte[] {1}), Value.of(new byte[] {2}));
        assertEquals(List.of("idle", "run", "<1 bytes>", "<1 bytes>"), sent);
    }

    @Test
    void everyReadingIsSentWithoutOptions() {
        ReportFilter f = filter(ReportPolicy.everyReading());
        assertEquals(List.of("1", "1", "1"), feed(f, new ArrayList<>(), Value.of(1.0), Value.of(1.0), Value.of(1.0)));
        assertEquals(3, stats.sent());
        assertEquals(0, stats.suppressed());
    }

    @Test
    void aWindowSendsOneAggregateOfItsReadingsWhenTheNextWindowBegins() {
        ReportFilter f = filter(ReportPolicy.window(Duration.ofSeconds(4)));
        List<Report.Window> windows = new ArrayList<>();
        double[] values = {1, 5, 3, 3, /* next window */ 10, 20, 30, 40, /* next */ 7};
        for (double v : values) {
            for (Report r : f.offer(ok(Value.of(v)))) {
                windows.add(assertInstanceOf(Report.Window.class, r));
            }
            seconds++;
        }

        assertEquals(2, windows.size());
        Report.Window first = windows.get(0);
        assertEquals(List.of(4L, 1.0, 5.0, 3.0), List.of(first.count(), first.min(), first.max(), first.mean()));
        assertEquals(EPOCH_MICROS, first.startMicros());
        assertEquals(EPOCH_MICROS + 4 * SECOND_MICROS, first.endMicros());
        Report.Window second = windows.get(1);
        assertEquals(List.of(4L, 10.0, 40.0, 25.0), List.of(second.count(), second.min(), second.max(), second.mean()));
        assertEquals(EPOCH_MICROS + 4 * SECOND_MICROS, second.startMicros());
        assertEquals(2, stats.sent());
        assertEquals(9, stats.suppressed());
    }

    @Test
    void aWindowSkipsEmptyWindowsAndStaysAlignedAfterAGap() {
        ReportFilter f = filter(ReportPolicy.window(Duration.ofSeconds(2)));
        f.offer(ok(Value.of(1.0)));
        seconds = 7;
        Report.Window w = assertInstanceOf(Report.Window.class, f.offer(ok(Value.of(3.0))).get(0));
        assertEquals(1, w.count());
        seconds = 8;
        w = assertInstanceOf(Report.Window.class, f.offer(ok(Value.of(5.0))).get(0));
        assertEquals(3.0, w.mean());
        assertEquals(EPOCH_MICROS + 6 * SECOND_MICROS, w.startMicros(), "the window of t=7 began at t=6");
    }

    @Test
    void aWindowSendsStatusChangesAtOnceAndLeavesFailuresOutOfTheAggregate() {
        ReportFilter f = filter(ReportPolicy.window(Duration.ofSeconds(10)));
        assertTrue(f.offer(ok(Value.of(2.0))).isEmpty());
        seconds++;
        Report.Sent down = assertInstanceOf(Report.Sent.class, f.offer(failed(Reading.Status.DISCONNECTED)).get(0));
        assertEquals(Report.Reason.STATUS, down.reason());
        seconds++;
        assertTrue(f.offer(failed(Reading.Status.DISCONNECTED)).isEmpty());
        seconds++;
        Report.Sent back = assertInstanceOf(Report.Sent.class, f.offer(ok(Value.of(4.0))).get(0));
        assertEquals(Report.Reason.STATUS, back.reason());
        seconds = 10;
        Report.Window w = assertInstanceOf(Report.Window.class, f.offer(ok(Value.of(9.0))).get(0));
        assertEquals(List.of(2L, 2.0, 4.0, 3.0), List.of(w.count(), w.min(), w.max(), w.mean()));
    }

    @Test
    void policiesThatCannotWorkAreRefusedSayingWhy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReportPolicy(null, Duration.ofSeconds(1), null));
        assertTrue(e.getMessage().contains("heartbeat= goes with a deadband"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ReportPolicy(new ReportPolicy.Deadband(1, false), null, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("window= stands alone"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ReportPolicy.Deadband(-1, false));
        assertTrue(e.getMessage().contains("0 or more"), e.getMessage());
    }
}
