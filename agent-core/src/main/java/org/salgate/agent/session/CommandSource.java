package org.salgate.agent.session;

import java.util.Map;
import org.salgate.agent.core.SensorEntry;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.stream.StreamSource;
import org.salgate.model.Reading;

/** A stream source reading one command of one sensor through the sensor manager. */
final class CommandSource implements StreamSource {

    private final SensorManager sensors;
    private final SensorEntry sensor;
    private final String commandId;
    private final Map<String, String> arguments;

    CommandSource(SensorManager sensors, SensorEntry sensor, String commandId, Map<String, String> arguments) {
        this.sensors = sensors;
        this.sensor = sensor;
        this.commandId = commandId;
        this.arguments = arguments;
    }

    SensorEntry sensor() {
        return sensor;
    }

    @Override
    public String sensorId() {
        return sensor.id();
    }

    @Override
    public String label() {
        return sensor.id() + "/" + commandId;
    }

    @Override
    public Reading read() {
        return sensors.read(sensor, commandId, arguments);
    }

    @Override
    public boolean deferred() {
        return sensors.onDeviceLane(sensor);
    }

    @Override
    public java.util.concurrent.CompletionStage<Reading> readLater() {
        return sensors.readLater(sensor, commandId, arguments, true);
    }

    @Override
    public void started() {
        sensors.streamStarted(sensor);
    }

    @Override
    public void stopped() {
        sensors.streamStopped(sensor);
    }
}
