package org.salgate.client.cli;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.salgate.model.Reading;
import org.salgate.model.Value;

/** How readings look on the console. */
final class ReadingFormat {

    private ReadingFormat() {}

    /** "42.5 [Cel]  OK  2025-01-01T00:00:00.000001Z", or "-  UNAVAILABLE: why  timestamp"; the unit in brackets, as CML shows it. */
    static String line(Reading reading, String unit) {
        StringBuilder b = new StringBuilder();
        b.append(value(reading.value()));
        if (reading.status() == Reading.Status.OK && unit != null && !unit.isEmpty()
                && (reading.value() instanceof Value.Num || reading.value() instanceof Value.Int)) {
            b.append(" [").append(unit).append(']');
        }
        b.append("  ").append(reading.status());
        if (!reading.error().isEmpty()) {
            b.append(": ").append(reading.error());
        }
        b.append("  ").append(timestamp(reading.timestampMicros()));
        return b.toString();
    }

    /** A value as text ({@link Value#toString()}); bytes by their size, never their content. */
    static String value(Value value) {
        return value.toString();
    }

    /** ISO-8601 in UTC. */
    static String timestamp(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString();
    }
}
