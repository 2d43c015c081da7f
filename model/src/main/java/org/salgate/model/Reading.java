package org.salgate.model;


import java.util.Objects;

/**
 * One reading of a sensor: a value, or a status saying why there is none.
 *
 * @param sensorId the sensor read
 * @param timestampMicros when the agent read it, in microseconds since the epoch
 * @param sequence the reading's number on its stream (from 0, no gaps), or 0 for a one-off read
 * @param value the value; {@link Value.Absent} unless {@code status} is {@link Status#OK}
 * @param status whether a value was read
 * @param error why not, when {@code status} is not OK; otherwise empty
 * @param unit the UCUM code of the value's unit (such as {@code Cel}, {@code V}, {@code By}), or empty
 *             when it has none
 * @param deviceTimeMicros when the device measured the value, in microseconds since the epoch, as the
 *                         device stamped it; 0 when the device gave no time
 */
public record Reading(String sensorId, long timestampMicros, long sequence, Value value, Status status,
                      String error, String unit, long deviceTimeMicros) {

    public enum Status {
        /** A value was read. */
        OK,
        /** The sensor cannot give this value on this machine (for example no temperature probe). */
        UNAVAILABLE,
        /** The read failed; {@code error} says why. */
        ERROR,
        /**
         * The connection to the sensor's device is down, so it was not asked; {@code error} says why
         * and when the agent tries to connect again.
         */
        DISCONNECTED;

        /** Whether a reading of this status is a failed read: {@link #ERROR} or {@link #DISCONNECTED}. */
        public boolean failed() {
            return this == ERROR || this == DISCONNECTED;
        }
    }

    public Reading {
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(status, "status");
        error = error == null ? "" : error;
        unit = unit == null ? "" : unit;
        if (status == Status.OK && value instanceof Value.Absent) {
            throw new IllegalArgumentException("an OK reading needs a value");
        }
    }

    /** A reading without a unit nor a device time. */
    public Reading(String sensorId, long timestampMicros, long sequence, Value value, Status status, String error) {
        this(sensorId, timestampMicros, sequence, value, status, error, "", 0);
    }

    public static Reading ok(String sensorId, long timestampMicros, long sequence, Value value) {
        return new Reading(sensorId, timestampMicros, sequence, value, Status.OK, "");
    }

    public static Reading unavailable(String sensorId, long timestampMicros, long sequence, String why) {
        return new Reading(sensorId, timestampMicros, sequence, Value.absent(), Status.UNAVAILABLE, why);
    }

    public static Reading error(String sensorId, long timestampMicros, long sequence, String why) {
        return new Reading(sensorId, timestampMicros, sequence, Value.absent(), Status.ERROR, why);
    }

    /** A read not made because the device's connection is down; {@code why} says why and when it is tried again. */
    public static Reading disconnected(String sensorId, long timestampMicros, long sequence, String why) {
        return new Reading(sensorId, timestampMicros, sequence, Value.absent(), Status.DISCONNECTED, why);
    }

    /** This reading with another sequence number. */
    public Reading withSequence(long seq) {
        return new Reading(sensorId, timestampMicros, seq, value, status, error, unit, deviceTimeMicros);
    }

    /** This reading with another unit (a UCUM code; null or empty for none). */
    public Reading withUnit(String newUnit) {
        return new Reading(sensorId, timestampMicros, sequence, value, status, error, newUnit, deviceTimeMicros);
    }

    /** This reading with the time the device stamped on its value (0 for none). */
    public Reading withDeviceTime(long micros) {
        return new Reading(sensorId, timestampMicros, sequence, value, status, error, unit, micros);
    }
}
