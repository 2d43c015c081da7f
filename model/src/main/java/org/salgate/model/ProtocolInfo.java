package org.salgate.model;


import java.util.Objects;

/**
 * A protocol (a loaded plugin instance bound to an endpoint) as listed by the agent.
 *
 * @param name the protocol's name, unique on the agent
 * @param type the plugin type that implements it, such as {@code dummy} or {@code os}
 * @param endpoint the endpoint it is bound to, such as {@code virtual} or {@code os}
 * @param sensorCount how many sensors it serves now
 */
public record ProtocolInfo(String name, String type, String endpoint, int sensorCount) {
    public ProtocolInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(endpoint, "endpoint");
    }
}
