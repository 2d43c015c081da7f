package org.salgate.plugin.agent;

import java.util.List;
import java.util.Objects;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;

/**
 * A lower agent's sensor as this agent serves it.
 *
 * @param lowerId its id on the lower agent
 * @param description its description here: the prefixed id, this protocol, and the lower id as address
 * @param commands its commands, as the lower agent describes them
 */
record RelayedSensor(String lowerId, SensorDescription description, List<CommandDescription> commands) {

    RelayedSensor {
        Objects.requireNonNull(lowerId, "lowerId");
        Objects.requireNonNull(description, "description");
        commands = List.copyOf(commands);
    }

    /**
     * The lower agent's description re-identified for this agent: id {@code prefix + lower id},
     * served by {@code protocol}, at address {@code lower id} within the {@code agent} endpoint.
     */
    static RelayedSensor of(String prefix, String protocol, SensorDescription lower, List<CommandDescription> commands) {
        SensorDescription here = new SensorDescription(prefix + lower.id(), lower.description(), protocol, lower.id(),
                lower.outputs(), lower.sampling());
        return new RelayedSensor(lower.id(), here, commands);
    }

    /** Its id on this agent. */
    String id() {
        return description.id();
    }
}
