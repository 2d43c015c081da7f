package org.salgate.client.cli;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.salgate.model.Reading;
import org.salgate.model.Value;

/** How readings look on the console. */
final class ReadingFormat {

    private ReadingFormat() {}

    /**
     * "42.5 [Cel]  OK  2025-01-01T00:00:00.000001Z", or "-  DISCONNECTED: why  timestamp"; the
     * reading's unit in brackets, as CML shows it, and the device's time after the agent's when the
     * device stamped the value ("... device 2025-01-01T00:00:00Z").
     */
    static String line(Reading reading) {
        StringBuilder b = new StringBuilder();
        b.append(value(reading.value()));
        String unit = unit(reading);
        if (unit != null) {
            b.append(" [").append(unit).append(']');
        }
        b.append("  ").append(reading.status());
        if (!reading.error().isEmpty()) {
            b.append(": ").append(reading.error());
        }
        b.append("  ").append(timestamp(reading.timestampMicros()));
        if (reading.deviceTimeMicros() != 0) {
            b.append("  device ").append(timestamp(reading.deviceTimeMicros()));
        }
        return b.toString();
    }

    /** The unit shown with a reading: its own, for a number read; null otherwise. */
    static String unit(Reading reading) {
        return reading.status() == Reading.Status.OK && !reading.unit().isEmpty()
                && (reading.value() instanceof Value.Num || reading.value() instanceof Value.Int) ? reading.unit() : null;
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
