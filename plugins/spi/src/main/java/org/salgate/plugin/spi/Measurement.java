package org.salgate.plugin.spi;

import java.util.Objects;
import org.salgate.model.Value;

/**
 * A value a protocol read for a command, with what it knows of it beyond the value: its unit and
 * the time its device stamped on it. A protocol that knows neither returns its value from
 * {@link SensorProtocol#execute}; one that knows them (a relay of another agent, whose readings
 * carry both) overrides {@link SensorProtocol#measure}.
 *
 * @param value the value read; {@link Value.Absent} when the sensor has none now
 * @param unit the value's UCUM unit code, or empty for the unit the command declares
 * @param deviceTimeMicros when the device measured it, in microseconds since the epoch, or 0 for none
 */
public record Measurement(Value value, String unit, long deviceTimeMicros) {
    public Measurement {
        Objects.requireNonNull(value, "value");
        unit = unit == null ? "" : unit;
    }

    /** A value with no unit of its own and no device time. */
    public static Measurement of(Value value) {
        return new Measurement(value, "", 0);
    }
}
