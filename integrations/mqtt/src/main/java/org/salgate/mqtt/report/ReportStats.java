package org.salgate.mqtt.report;

import java.util.concurrent.atomic.LongAdder;

/** What an output's stream filters did: messages sent, readings suppressed. Thread-safe. */
public final class ReportStats {

    private final LongAdder sent = new LongAdder();
    private final LongAdder suppressed = new LongAdder();

    /** Messages the filters let through: readings, and window aggregates. */
    public long sent() {
        return sent.sum();
    }

    /** Readings not sent as themselves: within the deadband, or folded into a window's aggregate. */
    public long suppressed() {
        return suppressed.sum();
    }

    void countSent(int n) {
        sent.add(n);
    }

    void countSuppressed() {
        suppressed.increment();
    }
}
