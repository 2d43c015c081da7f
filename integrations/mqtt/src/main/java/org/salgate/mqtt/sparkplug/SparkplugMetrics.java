package org.salgate.mqtt.sparkplug;

import java.util.List;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;

/** A sensor's Sparkplug metrics from its command list: one per command that can be streamed. */
public final class SparkplugMetrics {

    private SparkplugMetrics() {}

    /**
     * The metrics of a sensor's CML command list: each streamable command, named by its id, typed
     * by its response type, with its response unit and short description.
     *
     * @throws IllegalArgumentException when {@code cml} is not a CML document
     */
    public static List<MetricSpec> of(String cml) {
        List<CommandDescription> commands;
        try {
            commands = Cml.read(cml);
        } catch (DocumentException e) {
            throw new IllegalArgumentException("the agent's command list is not CML: " + e.getMessage(), e);
        }
        return commands.stream().filter(CommandDescription::streamable)
                .map(c -> new MetricSpec(c.id(), MetricSpec.DataType.ofResponseType(c.responseType()), c.responseUnit(),
                        c.shortDescription()))
                .toList();
    }
}
