package org.salgate.plugin.os;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/** The machine's own sensors; a fixed set, decided when the protocol opens. Thread-safe. */
final class OsProtocol implements SensorProtocol {

    private final Map<String, OsSensor> sensors;
    private final List<SensorDescription> descriptions;

    OsProtocol(String name, OsMetrics metrics) {
        Map<String, OsSensor> byId = new LinkedHashMap<>();
        for (OsSensor sensor : new OsSensors(name, metrics).build()) {
            byId.put(sensor.id(), sensor);
        }
        this.sensors = Map.copyOf(byId);
        this.descriptions = byId.values().stream().map(OsSensor::description).toList();
    }

    @Override
    public List<SensorDescription> sensors() {
        return descriptions;
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        OsSensor sensor = sensors.get(sensorId);
        return sensor == null ? List.of() : sensor.commands();
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws PluginException {
        OsSensor sensor = sensors.get(sensorId);
        if (sensor == null) {
            throw new PluginException("This machine has no OS sensor " + sensorId + "; list the sensors to see"
                    + " which exist.");
        }
        if (!OsSensors.READ.equals(commandId)) {
            throw new PluginException("Sensor " + sensorId + " has no command '" + commandId + "'; its only command is "
                    + OsSensors.READ + ".");
        }
        return sensor.reader().read();
    }

    @Override
    public void close() {
        // OSHI holds nothing that needs releasing.
    }
}
