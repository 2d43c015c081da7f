package org.salgate.mqtt.sparkplug;

import java.util.Locale;
import java.util.Objects;

/**
 * One metric of a device as its DBIRTH declares it: a sensor command whose readings the bridge
 * publishes, or, when hosts may write, a write command of the sensor.
 *
 * @param name the metric name: the command id, such as {@code temperature}
 * @param type its Sparkplug datatype
 * @param unit the UCUM unit of its values (the {@code engUnit} property), possibly empty
 * @param description one line saying what it is (the {@code description} property), possibly empty
 * @param low the lowest value a write may set (the {@code engLow} property), or null
 * @param high the highest value a write may set (the {@code engHigh} property), or null
 * @param writeArgument for a write command, the one argument a DCMD value is given to; null for a reading
 */
public record MetricSpec(String name, DataType type, String unit, String description, Double low, Double high,
                         String writeArgument) {

    /** The Sparkplug datatypes the bridge publishes, with their codes (Sparkplug 3.0.0, 6.4.16). */
    public enum DataType {
        INT64(4), UINT64(8), DOUBLE(10), BOOLEAN(11), STRING(12), BYTES(17);

        private final int code;

        DataType(int code) {
            this.code = code;
        }

        /** The number a payload carries. */
        public int code() {
            return code;
        }

        /**
         * The datatype of a command's response type as its CML names it: {@code decimal} is a
         * Double, {@code integer} an Int64, {@code boolean} a Boolean, {@code bytes} Bytes, anything
         * else a String.
         */
        public static DataType ofResponseType(String responseType) {
            return switch (responseType.toLowerCase(Locale.ROOT)) {
                case "decimal", "double", "float", "number" -> DOUBLE;
                case "integer", "int", "long", "count" -> INT64;
                case "boolean" -> BOOLEAN;
                case "bytes", "binary" -> BYTES;
                default -> STRING;
            };
        }
    }

    public MetricSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        unit = unit == null ? "" : unit;
        description = description == null ? "" : description;
    }

    /** A metric of readings. */
    public MetricSpec(String name, DataType type, String unit, String description) {
        this(name, type, unit, description, null, null, null);
    }

    /** Whether a DCMD may set it: it is a write command. */
    public boolean writable() {
        return writeArgument != null;
    }
}
