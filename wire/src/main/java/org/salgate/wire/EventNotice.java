package org.salgate.wire;

import org.salgate.model.Event;

import java.util.Objects;

/**
 * An agent event pushed to a client that subscribed to events.
 *
 * @param event the event
 * @param missedBefore how many events this client did not get just before this one because it was
 *                     not reading (its session was not writable); 0 when none
 */
public record EventNotice(Event event, long missedBefore) implements Message {
    public EventNotice {
        Objects.requireNonNull(event, "event");
        if (missedBefore < 0) {
            throw new IllegalArgumentException("missedBefore cannot be negative");
        }
    }

    public EventNotice(Event event) {
        this(event, 0);
    }
}
