package org.salgate.plugin.os;

import java.util.List;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * One OS sensor: its description, its single {@code read} command, and how to read it.
 *
 * @param description the sensor as SensorML describes it
 * @param commands its commands (just {@code read})
 * @param reader what {@code read} does
 */
record OsSensor(SensorDescription description, List<CommandDescription> commands, Reader reader) {

    OsSensor {
        commands = List.copyOf(commands);
    }

    String id() {
        return description.id();
    }

    /** Reads a sensor now. */
    @FunctionalInterface
    interface Reader {
        /** @throws SensorUnavailableException if the machine cannot give the value now */
        Value read() throws SensorUnavailableException;
    }
}
