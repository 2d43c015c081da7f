package org.salgate.model;


import java.util.Objects;

/**
 * Something that changed on the agent.
 *
 * @param type what happened
 * @param subject the sensor id or protocol name it happened to
 * @param state the sensor's new state for {@link Type#SENSOR_STATE}, otherwise null
 * @param timestampMicros when, in microseconds since the epoch
 * @param detail a human-readable detail, possibly empty
 */
public record Event(Type type, String subject, SensorState state, long timestampMicros, String detail) {

    /**
     * What happened. {@link #EVENTS_MISSED} is the gap notice a subscriber gets when it reads again
     * after events were not delivered to it; its event notice says how many.
     */
    public enum Type { SENSOR_ADDED, SENSOR_REMOVED, SENSOR_STATE, PROTOCOL_ADDED, PROTOCOL_REMOVED, EVENTS_MISSED }

    public Event {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subject, "subject");
        if (type == Type.SENSOR_STATE) {
            Objects.requireNonNull(state, "state of a SENSOR_STATE event");
        }
        detail = detail == null ? "" : detail;
    }
}
