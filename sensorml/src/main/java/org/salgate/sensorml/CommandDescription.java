package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A command a sensor understands, as its CML document describes it.
 *
 * @param id the command id used to execute it, such as {@code read}
 * @param name a short human name
 * @param shortDescription one line
 * @param longDescription more detail, possibly empty
 * @param arguments the arguments it takes
 * @param responseType the type of the value it returns, such as {@code decimal}, {@code integer}, {@code bytes}
 * @param responseUnit the UCUM unit of the value returned, possibly empty
 * @param streaming the stream intervals it allows, or null when it cannot be streamed
 */
public record CommandDescription(String id, String name, String shortDescription, String longDescription,
                                 List<Argument> arguments, String responseType, String responseUnit,
                                 SamplingBounds streaming) {

    public CommandDescription {
        Objects.requireNonNull(id, "id");
        name = name == null ? id : name;
        shortDescription = shortDescription == null ? "" : shortDescription;
        longDescription = longDescription == null ? "" : longDescription;
        arguments = List.copyOf(arguments);
        Objects.requireNonNull(responseType, "responseType");
        responseUnit = responseUnit == null ? "" : responseUnit;
    }

    /** Whether the command can be streamed. */
    public boolean streamable() {
        return streaming != null;
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    public static final class Builder {
        private final String id;
        private String name;
        private String shortDescription = "";
        private String longDescription = "";
        private final List<Argument> arguments = new ArrayList<>();
        private String responseType = "decimal";
        private String responseUnit = "";
        private SamplingBounds streaming;

        private Builder(String id) {
            this.id = id;
        }

        public Builder name(String v) { this.name = v; return this; }
        public Builder shortDescription(String v) { this.shortDescription = v; return this; }
        public Builder longDescription(String v) { this.longDescription = v; return this; }
        public Builder argument(Argument a) { this.arguments.add(a); return this; }
        public Builder response(String type, String unit) { this.responseType = type; this.responseUnit = unit; return this; }
        public Builder streaming(SamplingBounds bounds) { this.streaming = bounds; return this; }

        public CommandDescription build() {
            return new CommandDescription(id, name, shortDescription, longDescription, arguments, responseType,
                    responseUnit, streaming);
        }
    }
}
