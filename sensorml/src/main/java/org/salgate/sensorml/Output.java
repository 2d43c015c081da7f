package org.salgate.sensorml;

import java.util.Objects;

/**
 * One output of a sensor, as SensorML lists it.
 *
 * @param name the output's name, an NCName such as {@code value} or {@code freeMemory}
 * @param definition a URI saying what is measured
 * @param type how the value is represented
 * @param unit the UCUM unit code for quantities (such as {@code By}, {@code %}, {@code Cel}); empty otherwise
 */
public record Output(String name, String definition, DataType type, String unit) {

    /** SWE Common representations of an output. */
    public enum DataType { QUANTITY, COUNT, TEXT, BINARY }

    public Output {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(type, "type");
        unit = unit == null ? "" : unit;
    }

    public static Output quantity(String name, String definition, String unit) {
        return new Output(name, definition, DataType.QUANTITY, unit);
    }
}
