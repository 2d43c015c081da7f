package org.salgate.wire;

import java.util.Objects;

/** An agent event pushed to a client that subscribed to events. */
public record EventNotice(Event event) implements Message {
    public EventNotice {
        Objects.requireNonNull(event, "event");
    }
}
