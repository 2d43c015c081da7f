package org.salgate.plugin.spi;

import java.util.List;
import java.util.Map;
import org.salgate.model.Value;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;

/**
 * A protocol that talks to a device and has no sensors of its own: the agent serves each channel
 * of its configuration, or of the device's {@link #discover() listing}, as a sensor, read and
 * written through {@link #read} and {@link #write}. Closing it disconnects; a protocol that holds
 * more than its connection closes that too.
 */
public interface DeviceProtocol extends SensorProtocol {

    /** None: the agent serves the channels as sensors. */
    @Override
    default List<SensorDescription> sensors() {
        return List.of();
    }

    /** None: a channel's sensor has the agent's commands. */
    @Override
    default List<CommandDescription> commands(String sensorId) {
        return List.of();
    }

    /** Refused: the agent reads channels with {@link #read}, never through here. */
    @Override
    default Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        throw new PluginException("a device protocol has no sensors of its own: its channels are read as channels");
    }

    @Override
    default void close() {
        disconnect();
    }
}
