package org.salgate.plugin.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.salgate.client.SalClient;
import org.salgate.plugin.spi.Measurement;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.Value;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A protocol of type {@code agent}: the sensors of a lower agent, listed once when it opens, with
 * every read forwarded to that agent. Thread-safe: the sensor table never changes after opening and
 * {@link LowerAgent} is thread-safe.
 */
final class RelayProtocol implements SensorProtocol {

    /** Sensors described per round of requests while opening, so a large lower agent is not flooded. */
    static final int DESCRIBE_BATCH = 64;

    private static final Logger LOG = LoggerFactory.getLogger(RelayProtocol.class);

    private final LowerAgent lower;
    private final Map<String, RelayedSensor> sensors;

    private RelayProtocol(LowerAgent lower, Map<String, RelayedSensor> sensors) {
        this.lower = lower;
        this.sensors = sensors;
    }

    /**
     * Connects to the lower agent and lists its sensors with their descriptions and commands.
     *
     * @throws PluginException when it cannot be reached or fails to describe its sensors
     */
    static RelayProtocol open(String name, RelayConfig config) throws PluginException {
        LowerAgent lower = LowerAgent.connect(name, config);
        try {
            List<SensorInfo> listed = lower.call("the sensor list", SalClient::listSensors);
            Map<String, RelayedSensor> sensors = new LinkedHashMap<>();
            for (int from = 0; from < listed.size(); from += DESCRIBE_BATCH) {
                List<SensorInfo> batch = listed.subList(from, Math.min(listed.size(), from + DESCRIBE_BATCH));
                for (RelayedSensor s : lower.call("the descriptions of its sensors", c -> describe(c, batch))) {
                    RelayedSensor here = RelayedSensor.of(config.prefix(), name, s.description(), s.commands());
                    sensors.put(here.id(), here);
                }
            }
            LOG.info("Protocol {} relays {} sensors of the agent at {}.", name, sensors.size(), lower.address());
            return new RelayProtocol(lower, Collections.unmodifiableMap(sensors));
        } catch (PluginException | RuntimeException e) {
            lower.close();
            throw e;
        }
    }

    /** The lower agent's own descriptions (not yet re-identified) of a batch of its sensors. */
    private static CompletableFuture<List<RelayedSensor>> describe(SalClient client, List<SensorInfo> batch) {
        List<CompletableFuture<RelayedSensor>> each = new ArrayList<>();
        for (SensorInfo info : batch) {
            CompletableFuture<SensorDescription> description = client.describeSensor(info.id());
            CompletableFuture<List<CommandDescription>> commands = client.listCommands(info.id());
            each.add(description.thenCombine(commands, (d, c) -> new RelayedSensor(info.id(), d, c)));
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                .thenApply(done -> each.stream().map(CompletableFuture::join).toList());
    }

    @Override
    public List<SensorDescription> sensors() {
        return sensors.values().stream().map(RelayedSensor::description).toList();
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        RelayedSensor s = sensors.get(sensorId);
        return s == null ? List.of() : s.commands();
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        return measure(sensorId, commandId, arguments).value();
    }

    /**
     * Forwards a read to the lower agent and keeps what its reading says: the value with its unit and
     * device time, or its status as the failure that gives the same status here (UNAVAILABLE,
     * ERROR, DISCONNECTED).
     */
    @Override
    public Measurement measure(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        RelayedSensor s = sensors.get(sensorId);
        if (s == null) {
            throw new PluginException("sensor " + sensorId + " is not relayed by this protocol");
        }
        Reading reading = lower.call("the read of " + s.lowerId(), c -> c.execute(s.lowerId(), commandId, arguments));
        return switch (reading.status()) {
            case OK -> new Measurement(reading.value(), reading.unit(), reading.deviceTimeMicros());
            case UNAVAILABLE -> throw new SensorUnavailableException(reading.error());
            case ERROR -> throw new PluginException("the lower agent at " + lower.address() + " reports: "
                    + reading.error());
            case DISCONNECTED -> throw new SensorDisconnectedException("the lower agent at " + lower.address()
                    + " reports: " + reading.error());
        };
    }

    @Override
    public void close() {
        lower.close();
    }
}
