package org.salgate.model;


import java.util.Objects;

/**
 * One reading of a sensor: a value, or a status saying why there is none.
 *
 * @param sensorId the sensor read
 * @param timestampMicros when it was read, in microseconds since the epoch
 * @param sequence the reading's number on its stream (from 0, no gaps), or 0 for a one-off read
 * @param value the value; {@link Value.Absent} unless {@code status} is {@link Status#OK}
 * @param status whether a value was read
 * @param error why not, when {@code status} is not OK; otherwise empty
 */
public record Reading(String sensorId, long timestampMicros, long sequence, Value value, Status status,
                      String error) {

    public enum Status {
        /** A value was read. */
        OK,
        /** The sensor cannot give this value on this machine (for example no temperature probe). */
        UNAVAILABLE,
        /** The read failed; {@code error} says why. */
        ERROR
    }

    public Reading {
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(status, "status");
        error = error == null ? "" : error;
        if (status == Status.OK && value instanceof Value.Absent) {
            throw new IllegalArgumentException("an OK reading needs a value");
        }
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

    /** This reading with another sequence number. */
    public Reading withSequence(long seq) {
        return new Reading(sensorId, timestampMicros, seq, value, status, error);
    }
}
