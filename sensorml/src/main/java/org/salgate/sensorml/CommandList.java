package org.salgate.sensorml;

import java.util.List;

/**
 * A CML document: the commands of one sensor.
 *
 * @param sensorId the id of the sensor the commands belong to, or empty when the document does not say
 * @param commands the commands, in document order
 */
public record CommandList(String sensorId, List<CommandDescription> commands) {

    public CommandList {
        sensorId = sensorId == null ? "" : sensorId;
        commands = List.copyOf(commands);
    }
}
