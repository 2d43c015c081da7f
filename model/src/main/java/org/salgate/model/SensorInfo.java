package org.salgate.model;


import java.util.Objects;

/**
 * A sensor as listed by the agent.
 *
 * @param id the sensor id, unique on the agent
 * @param protocol the name of the protocol (plugin instance) that serves it
 * @param state its current state
 * @param description a one-line human description, possibly empty
 */
public record SensorInfo(String id, String protocol, SensorState state, String description) {
    public SensorInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(state, "state");
        description = description == null ? "" : description;
    }
}
