package org.salgate.sensorml;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One protocol of a platform configuration (PCML): a plugin type bound to an endpoint, and the
 * sensors changed on it at run time.
 *
 * @param name the protocol's name, unique on the agent, such as {@code dummy}
 * @param type the plugin type that implements it, such as {@code dummy} or {@code os}
 * @param endpoint where its sensors hang off: {@code os}, {@code virtual}, or another endpoint type
 *                 optionally followed by {@code :address} (such as {@code serial:/dev/ttyUSB0})
 * @param parameters plugin-specific settings (such as {@code sensors=20})
 * @param addedSensors the sensors to add once the plugin opened the protocol, each served by this
 *                     protocol, with distinct ids
 * @param removedSensors the ids of sensors the plugin opens the protocol with that are to be
 *                       removed, distinct
 * @param channels the device's channels, each served as a sensor {@code <name>.<channel>}, with
 *                 distinct names; empty for protocols that describe their sensors themselves
 */
public record ProtocolConfig(String name, String type, String endpoint, Map<String, String> parameters,
                             List<SensorDescription> addedSensors, List<String> removedSensors,
                             List<ChannelConfig> channels) {

    public ProtocolConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(endpoint, "endpoint");
        if (name.isBlank() || type.isBlank()) {
            throw new IllegalArgumentException("a protocol needs a name and a type");
        }
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        addedSensors = addedSensors == null ? List.of() : List.copyOf(addedSensors);
        removedSensors = removedSensors == null ? List.of() : List.copyOf(removedSensors);
        channels = channels == null ? List.of() : List.copyOf(channels);
        Set<String> ids = new HashSet<>();
        for (SensorDescription d : addedSensors) {
            if (!d.protocol().equals(name)) {
                throw new IllegalArgumentException("sensor " + d.id() + " names protocol " + d.protocol()
                        + " but is added to protocol " + name + "; make its protocol term " + name);
            }
            if (!ids.add(d.id())) {
                throw new IllegalArgumentException("sensor " + d.id() + " is added to protocol " + name
                        + " twice; keep one");
            }
        }
        ids.clear();
        for (String id : removedSensors) {
            if (id.isBlank()) {
                throw new IllegalArgumentException("a removed sensor of protocol " + name + " needs an id");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException("sensor " + id + " is removed from protocol " + name
                        + " twice; keep one");
            }
        }
        ids.clear();
        for (ChannelConfig c : channels) {
            if (!ids.add(c.name())) {
                throw new IllegalArgumentException("channel " + c.name() + " of protocol " + name
                        + " is configured twice; keep one");
            }
        }
    }

    /** A protocol with no channel. */
    public ProtocolConfig(String name, String type, String endpoint, Map<String, String> parameters,
                          List<SensorDescription> addedSensors, List<String> removedSensors) {
        this(name, type, endpoint, parameters, addedSensors, removedSensors, List.of());
    }

    /** A protocol with no channel and no sensor changed at run time. */
    public ProtocolConfig(String name, String type, String endpoint, Map<String, String> parameters) {
        this(name, type, endpoint, parameters, List.of(), List.of());
    }

    /** The id of the sensor that serves {@code channel}: {@code <protocol>.<channel>}. */
    public String sensorId(ChannelConfig channel) {
        return name + "." + channel.name();
    }

    /** A parameter, or {@code fallback} when it is not set. */
    public String parameter(String key, String fallback) {
        return parameters.getOrDefault(key, fallback);
    }
}
