package org.salgate.plugin.spi;

import java.util.List;
import java.util.Map;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * One running protocol: a plugin bound to an endpoint, serving some sensors. The agent calls it
 * from several threads at once, so implementations are thread-safe. Whatever a method throws is
 * caught by the agent and reported on that request or reading only.
 */
public interface SensorProtocol extends AutoCloseable {

    /** The sensors this protocol serves now. */
    List<SensorDescription> sensors();

    /** The commands of one of its sensors. */
    List<CommandDescription> commands(String sensorId);

    /**
     * Executes a command once and returns the value read. The agent has already checked that the
     * sensor and command exist and that the arguments are within their bounds, and has filled in
     * defaults for arguments left out.
     *
     * @throws SensorUnavailableException if the machine cannot give this value (reported as unavailable)
     * @throws Exception any other failure (reported as an error reading)
     */
    Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception;

    /**
     * Adds a sensor from its description, when the protocol supports that.
     *
     * @return the description as the protocol will serve it
     * @throws PluginException if the protocol cannot serve it
     */
    default SensorDescription addSensor(SensorDescription description) throws PluginException {
        throw new PluginException("this protocol cannot add sensors");
    }

    /**
     * Removes a sensor this protocol serves.
     *
     * @throws PluginException if the protocol cannot remove it
     */
    default void removeSensor(String sensorId) throws PluginException {
        throw new PluginException("this protocol cannot remove sensors");
    }

    /** Releases the protocol's resources. Must not throw. */
    @Override
    void close();
}
