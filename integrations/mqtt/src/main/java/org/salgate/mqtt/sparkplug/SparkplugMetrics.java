package org.salgate.mqtt.sparkplug;

import java.util.ArrayList;
import java.util.List;
import org.salgate.mqtt.sparkplug.MetricSpec.DataType;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;

/** A sensor's Sparkplug metrics from its command list: one per command that can be streamed. */
public final class SparkplugMetrics {

    private SparkplugMetrics() {}

    /**
     * The metrics of a sensor's CML command list: each streamable command, named by its id, typed
     * by its response type, with its response unit and short description; with {@code writes},
     * also each command that cannot be streamed and takes exactly one argument (such as a Modbus
     * channel's {@code write value}), typed by that argument, its bounds as {@code engLow}/{@code engHigh}.
     *
     * @throws IllegalArgumentException when {@code cml} is not a CML document
     */
    public static List<MetricSpec> of(String cml, boolean writes) {
        List<CommandDescription> commands;
        try {
            commands = Cml.read(cml);
        } catch (DocumentException e) {
            throw new IllegalArgumentException("the agent's command list is not CML: " + e.getMessage(), e);
        }
        List<MetricSpec> metrics = new ArrayList<>();
        for (CommandDescription c : commands) {
            if (c.streamable()) {
                metrics.add(new MetricSpec(c.id(), DataType.ofResponseType(c.responseType()), c.responseUnit(),
                        c.shortDescription()));
            } else if (writes && c.arguments().size() == 1) {
                Argument a = c.arguments().get(0);
                metrics.add(new MetricSpec(c.id(), switch (a.type()) {
                    case DECIMAL -> DataType.DOUBLE;
                    case INTEGER -> DataType.INT64;
                    case BOOLEAN -> DataType.BOOLEAN;
                    case STRING -> DataType.STRING;
                }, c.responseUnit(), c.shortDescription(), a.min(), a.max(), a.name()));
            }
        }
        return metrics;
    }
}
