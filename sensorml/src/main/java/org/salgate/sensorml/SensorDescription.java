package org.salgate.sensorml;

import java.util.List;
import java.util.Objects;

/**
 * A sensor as a SensorML 2.0 {@code PhysicalComponent} describes it.
 *
 * @param id the sensor id on its agent (the SensorML identifier), such as {@code DUMMY_0}
 * @param description a human description
 * @param protocol the name of the protocol that serves the sensor
 * @param address the sensor's address within its protocol's endpoint, possibly empty
 * @param outputs what the sensor measures
 * @param sampling the stream intervals it allows
 */
public record SensorDescription(String id, String description, String protocol, String address,
                                List<Output> outputs, SamplingBounds sampling) {

    public SensorDescription {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a sensor id must not be blank");
        }
        Objects.requireNonNull(protocol, "protocol");
        description = description == null ? "" : description;
        address = address == null ? "" : address;
        outputs = List.copyOf(outputs);
        Objects.requireNonNull(sampling, "sampling");
    }

    /**
     * The gml:id of this description: the id made into an XML NCName, prefixed so that it never
     * starts with a digit.
     */
    public String gmlId() {
        StringBuilder b = new StringBuilder("sensor-");
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            b.append(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' ? c : '_');
        }
        return b.toString();
    }

    /** The same sensor served by another protocol. */
    public SensorDescription withProtocol(String newProtocol) {
        return new SensorDescription(id, description, newProtocol, address, outputs, sampling);
    }
}
