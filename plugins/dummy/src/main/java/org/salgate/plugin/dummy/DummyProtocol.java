package org.salgate.plugin.dummy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * A protocol of virtual sensors, each answering {@code read} with a constant decimal,
 * {@code payload} with patterned bytes and {@code ramp} with 0, 1, 2, ... (a count per sensor). Sensors can be added from a SensorML description and
 * removed at run time; added sensors serve the same commands.
 *
 * <p>The {@code payload} bytes are shared between readings of the same size ({@link Value.Bytes}
 * does not copy): callers must not modify them. Thread-safe.
 */
final class DummyProtocol implements SensorProtocol {

    private static final Value READING = Value.of(DummyCommands.READING);

    private final String name;
    private final List<CommandDescription> commands;
    private final PayloadPool payloads;
    private final Map<String, SensorDescription> byId = new ConcurrentHashMap<>();
    /** Each sensor's next ramp value; a removed sensor's goes with it. */
    private final Map<String, AtomicLong> ramps = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    /** Immutable, in the order sensors were added; replaced under {@link #writeLock}. */
    private volatile List<SensorDescription> ordered;

    DummyProtocol(String name, DummyParameters parameters) {
        this.name = name;
        this.commands = DummyCommands.all(parameters.payloadBytes());
        this.payloads = new PayloadPool(parameters.payloadBytes());
        List<SensorDescription> initial = new ArrayList<>(parameters.sensors());
        for (int i = 0; i < parameters.sensors(); i++) {
            SensorDescription sensor = new SensorDescription(parameters.sensorId(i),
                    "Dummy sensor " + i + ": a constant reading and a byte payload, for tests and benchmarks.",
                    name, "", DummyCommands.OUTPUTS, SamplingBounds.ANY);
            initial.add(sensor);
            byId.put(sensor.id(), sensor);
        }
        this.ordered = List.copyOf(initial);
    }

    @Override
    public List<SensorDescription> sensors() {
        return ordered;
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        return byId.containsKey(sensorId) ? commands : List.of();
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws PluginException {
        if (!byId.containsKey(sensorId)) {
            throw new PluginException("Protocol " + name + " has no sensor " + sensorId + "; list the sensors to see"
                    + " which exist.");
        }
        switch (commandId) {
            case DummyCommands.READ:
                return READING;
            case DummyCommands.PAYLOAD:
                return Value.of(payloads.payload(size(arguments.get(DummyCommands.SIZE))));
            case DummyCommands.RAMP:
                return Value.of((double) ramps.computeIfAbsent(sensorId, id -> new AtomicLong()).getAndIncrement());
            default:
                throw new PluginException("Sensor " + sensorId + " has no command '" + commandId + "'; its commands are "
                        + DummyCommands.READ + ", " + DummyCommands.PAYLOAD + " and " + DummyCommands.RAMP + ".");
        }
    }

    private int size(String raw) throws PluginException {
        if (raw == null) {
            return payloads.defaultSize();
        }
        long size;
        try {
            size = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            size = -1;
        }
        if (size < 0 || size > DummyParameters.MAX_PAYLOAD_BYTES) {
            throw new PluginException("Argument size must be a whole number from 0 to "
                    + DummyParameters.MAX_PAYLOAD_BYTES + ", not '" + raw + "'.");
        }
        return (int) size;
    }

    /**
     * Adds a virtual sensor serving {@code read}, {@code payload} and {@code ramp}. The description is kept as
     * given, served by this protocol, with the dummy outputs when it lists none.
     */
    @Override
    public SensorDescription addSensor(SensorDescription description) throws PluginException {
        SensorDescription served = new SensorDescription(description.id(), description.description(), name,
                description.address(),
                description.outputs().isEmpty() ? DummyCommands.OUTPUTS : description.outputs(),
                description.sampling());
        synchronized (writeLock) {
            if (byId.putIfAbsent(served.id(), served) != null) {
                throw new PluginException("Protocol " + name + " already has a sensor " + served.id()
                        + "; remove it first or choose another id.");
            }
            List<SensorDescription> next = new ArrayList<>(ordered);
            next.add(served);
            ordered = List.copyOf(next);
        }
        return served;
    }

    @Override
    public void removeSensor(String sensorId) throws PluginException {
        synchronized (writeLock) {
            if (byId.remove(sensorId) == null) {
                throw new PluginException("Protocol " + name + " has no sensor " + sensorId + " to remove.");
            }
            ramps.remove(sensorId);
            List<SensorDescription> next = new ArrayList<>(ordered);
            next.removeIf(s -> s.id().equals(sensorId));
            ordered = List.copyOf(next);
        }
    }

    @Override
    public void close() {
        // Nothing to release: the sensors are in memory only.
    }
}
