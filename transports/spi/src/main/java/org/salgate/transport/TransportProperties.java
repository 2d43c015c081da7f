package org.salgate.transport;

import java.util.List;
import java.util.Map;

/**
 * Reading a transport's properties ({@link ServerOptions#properties()}, {@link ClientOptions#properties()},
 * the agent's {@code --transport-property NAME=VALUE}), each refused with its name and value
 * when it is set to what it cannot be.
 */
public final class TransportProperties {

    private TransportProperties() {
    }

    /**
     * The positive whole number {@code name} of {@code properties}, or {@code otherwise} when it is not set.
     *
     * @throws IllegalArgumentException if it is set to anything else, naming the property and the value
     */
    public static int positiveInt(Map<String, String> properties, String name, int otherwise) {
        String value = properties.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(name + " must be a positive whole number, got '" + value + "'");
    }

    /**
     * Which of {@code allowed} the property {@code name} is, the first when it is not set.
     *
     * @throws IllegalArgumentException if it is set to another value, naming the property, the value and the choices
     */
    public static String oneOf(Map<String, String> properties, String name, List<String> allowed) {
        String value = properties.getOrDefault(name, allowed.get(0));
        if (allowed.contains(value)) {
            return value;
        }
        throw new IllegalArgumentException(name + " must be one of " + allowed + ", got '" + value + "'");
    }
}
