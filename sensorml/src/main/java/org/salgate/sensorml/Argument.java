package org.salgate.sensorml;

import java.util.Objects;

/**
 * One argument of a command.
 *
 * @param name the argument's name
 * @param type its type
 * @param min the smallest allowed value for numbers, or null for none
 * @param max the largest allowed value for numbers, or null for none
 * @param defaultValue the value used when the argument is left out, or null
 * @param optional whether it may be left out
 * @param description what it means, possibly empty
 */
public record Argument(String name, Type type, Double min, Double max, String defaultValue, boolean optional,
                       String description) {

    public enum Type { INTEGER, DECIMAL, STRING, BOOLEAN }

    public Argument {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (min != null && max != null && min > max) {
            throw new IllegalArgumentException("argument " + name + ": min " + min + " > max " + max);
        }
        description = description == null ? "" : description;
    }

    /** A required integer argument within [min, max]. */
    public static Argument integer(String name, long min, long max, String description) {
        return new Argument(name, Type.INTEGER, (double) min, (double) max, null, false, description);
    }
}
