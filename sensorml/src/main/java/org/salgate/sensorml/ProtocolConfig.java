package org.salgate.sensorml;

import java.util.Map;
import java.util.Objects;

/**
 * One protocol of a platform configuration (PCML): a plugin type bound to an endpoint.
 *
 * @param name the protocol's name, unique on the agent, such as {@code dummy}
 * @param type the plugin type that implements it, such as {@code dummy} or {@code os}
 * @param endpoint where its sensors hang off: {@code os}, {@code virtual}, or another endpoint type
 *                 optionally followed by {@code :address} (such as {@code serial:/dev/ttyUSB0})
 * @param parameters plugin-specific settings (such as {@code sensors=20})
 */
public record ProtocolConfig(String name, String type, String endpoint, Map<String, String> parameters) {

    public ProtocolConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(endpoint, "endpoint");
        if (name.isBlank() || type.isBlank()) {
            throw new IllegalArgumentException("a protocol needs a name and a type");
        }
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }

    /** A parameter, or {@code fallback} when it is not set. */
    public String parameter(String key, String fallback) {
        return parameters.getOrDefault(key, fallback);
    }
}
