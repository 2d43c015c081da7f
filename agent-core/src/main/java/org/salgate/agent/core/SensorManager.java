package org.salgate.agent.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.salgate.agent.device.Channels;
import org.salgate.agent.device.DeviceLane;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.Measurement;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.Value;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sensor manager of the communication layer: the sensors of every protocol, their
 * descriptions, commands and states, and reading them through their plugins.
 *
 * <p>Lookups are lock-free (an immutable snapshot); registration and removal are serialised.
 *
 * <p>Failure policy: a read that throws gives an ERROR reading. After
 * {@value #DISABLE_AFTER_FAILURES} consecutive failed reads a sensor is reported
 * {@link SensorState#DISABLED} (with an event); the agent keeps trying it, and its first good
 * read reports it back as idle or streaming. An UNAVAILABLE reading is not a failure.
 * A read that throws {@link SensorDisconnectedException} (the device or the agent behind it is
 * gone) gives a DISCONNECTED reading and reports the sensor {@link SensorState#DISCONNECTED} at once,
 * without counting towards disabling it; its first good read reports it back.
 *
 * <p>Every reading carries the unit of its command's values ({@link SensorEntry#unit}) unless the
 * protocol gave one of its own, and the time the device stamped on the value when it gave one.
 */
public final class SensorManager {

    /** Consecutive failed reads after which a sensor is reported disabled. */
    public static final int DISABLE_AFTER_FAILURES = 100;

    private static final Logger LOG = LoggerFactory.getLogger(SensorManager.class);

    private final EventBus events;
    private final BiConsumer<String, String> onRemoved;
    private final Object writeLock = new Object();
    private volatile Map<String, SensorEntry> sensors = Map.of();
    /** Failed reads by sensor id, kept when a sensor is removed so that the counts only grow. */
    private final Map<String, LongAdder> readErrors = new ConcurrentHashMap<>();

    /**
     * @param events where sensor events go
     * @param onRemoved called with a sensor id and a reason when the sensor is removed, before its
     *                  removal event (ends its streams)
     */
    public SensorManager(EventBus events, BiConsumer<String, String> onRemoved) {
        this.events = events;
        this.onRemoved = onRemoved;
    }

    /** Every sensor, or only the streaming ones, in the order they were added. */
    public List<SensorInfo> list(boolean activeOnly) {
        List<SensorInfo> out = new ArrayList<>();
        for (SensorEntry e : sensors.values()) {
            SensorInfo info = e.info();
            if (!activeOnly || info.state() == SensorState.STREAMING) {
                out.add(info);
            }
        }
        return out;
    }

    /** How many sensors a protocol serves. */
    public int countOf(String protocolName) {
        int n = 0;
        for (SensorEntry e : sensors.values()) {
            if (e.protocol().name().equals(protocolName)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The descriptions of a protocol's sensors, in the order they were added, without those of
     * discovered channels (found again at each start, they are not part of its configuration).
     */
    public List<SensorDescription> descriptionsOf(String protocolName) {
        List<SensorDescription> out = new ArrayList<>();
        for (SensorEntry e : sensors.values()) {
            if (e.protocol().name().equals(protocolName) && !e.discovered()) {
                out.add(e.registeredDescription());
            }
        }
        return out;
    }

    /** The sensor with this id, if any. */
    public Optional<SensorEntry> find(String sensorId) {
        return Optional.ofNullable(sensors.get(sensorId));
    }

    /**
     * The sensor with this id.
     *
     * @throws CallException with {@link ErrorCode#UNKNOWN_SENSOR} when there is none
     */
    public SensorEntry get(String sensorId) throws CallException {
        SensorEntry e = sensors.get(sensorId);
        if (e == null) {
            throw new CallException(ErrorCode.UNKNOWN_SENSOR,
                    "there is no sensor '" + sensorId + "' on this agent; list the sensors to see their ids");
        }
        return e;
    }

    /** A sensor's SensorML document. */
    public String describe(String sensorId) throws CallException {
        SensorEntry sensor = get(sensorId);
        try {
            return SensorMl.write(sensor.description());
        } catch (IllegalArgumentException e) {
            throw badDescription(sensor, "SensorML", e);
        }
    }

    /** A sensor's CML document. */
    public String commandsXml(String sensorId) throws CallException {
        SensorEntry sensor = get(sensorId);
        try {
            return Cml.write(sensor.commandList());
        } catch (IllegalArgumentException e) {
            throw badDescription(sensor, "CML", e);
        }
    }

    private static CallException badDescription(SensorEntry sensor, String format, IllegalArgumentException e) {
        LOG.warn("protocol {} describes sensor {} in a way that cannot be written as {}: {}", sensor.protocol().name(),
                sensor.id(), format, e.getMessage());
        return new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + sensor.protocol().name() + " describes sensor "
                + sensor.id() + " in a way that cannot be written as " + format + ": " + e.getMessage());
    }

    /**
     * One of a sensor's commands.
     *
     * @throws CallException with {@link ErrorCode#UNKNOWN_COMMAND} when the sensor has no such command
     */
    public CommandDescription command(SensorEntry sensor, String commandId) throws CallException {
        CommandDescription c = sensor.commands().get(commandId);
        if (c == null) {
            throw new CallException(ErrorCode.UNKNOWN_COMMAND, "sensor " + sensor.id() + " has no command '"
                    + commandId + "'; its commands are " + String.join(", ", sensor.commands().keySet()));
        }
        return c;
    }

    /** Checks a command call and executes it once; the reading has sequence 0. */
    public Reading execute(String sensorId, String commandId, Map<String, String> arguments) throws CallException {
        return executeLater(sensorId, commandId, arguments).join();
    }

    /**
     * Checks a command call and executes it once, as {@link #readLater} reads: a sensor on a
     * device's lane answers when the device does, any other at once.
     *
     * @throws CallException when the sensor, the command or an argument is wrong
     */
    public CompletableFuture<Reading> executeLater(String sensorId, String commandId, Map<String, String> arguments)
            throws CallException {
        SensorEntry sensor = get(sensorId);
        CommandDescription command = command(sensor, commandId);
        return readLater(sensor, command.id(), ArgumentChecker.check(sensorId, command, arguments));
    }

    /**
     * Reads a sensor through its plugin, or through its device's lane when its protocol has one
     * (waiting at most the lane's request timeout). Never throws: a plugin failure is an ERROR
     * reading, a {@link SensorUnavailableException} an UNAVAILABLE one, a
     * {@link SensorDisconnectedException} a DISCONNECTED one. The arguments must have been checked.
     */
    public Reading read(SensorEntry sensor, String commandId, Map<String, String> arguments) {
        if (sensor.protocol().lane() != null) {
            return readLater(sensor, commandId, arguments).join();
        }
        return inUnit(sensor, commandId, readNow(sensor, commandId, arguments));
    }

    private Reading readNow(SensorEntry sensor, String commandId, Map<String, String> arguments) {
        long now = Micros.now();
        String id = sensor.id();
        try {
            Reading reading = invoke(sensor, commandId, arguments, now);
            if (reading.status().failed()) {
                readErrors.computeIfAbsent(id, k -> new LongAdder()).increment();
            } else {
                succeeded(sensor);
            }
            return reading;
        } catch (SensorUnavailableException e) {
            succeeded(sensor);
            return Reading.unavailable(id, now, 0, message(e));
        } catch (SensorDisconnectedException e) {
            readErrors.computeIfAbsent(id, k -> new LongAdder()).increment();
            disconnected(sensor, e);
            return Reading.disconnected(id, now, 0, "sensor " + id + " is disconnected: " + message(e));
        } catch (Exception | LinkageError | AssertionError e) {
            readErrors.computeIfAbsent(id, k -> new LongAdder()).increment();
            failed(sensor, commandId, e);
            return Reading.error(id, now, 0, "sensor " + id + " failed to read '" + commandId + "': " + message(e));
        }
    }

    /**
     * Reads a sensor without waiting for its device: through the device's lane when its protocol
     * has one (the reading comes within the lane's request timeout, on another thread), at once
     * otherwise. Never fails: a failure is a reading.
     */
    public CompletableFuture<Reading> readLater(SensorEntry sensor, String commandId, Map<String, String> arguments) {
        return readLater(sensor, commandId, arguments, false);
    }

    /**
     * Reads a sensor as {@link #readLater(SensorEntry, String, Map)} does; {@code tick} when a
     * stream's tick reads it, so that a device's lane gathers the reads of the streams ticking
     * together into one batch.
     */
    public CompletableFuture<Reading> readLater(SensorEntry sensor, String commandId, Map<String, String> arguments,
                                                boolean tick) {
        DeviceLane lane = sensor.protocol().lane();
        if (lane == null) {
            return CompletableFuture.completedFuture(read(sensor, commandId, arguments));
        }
        if (sensor.gone) {
            readErrors.computeIfAbsent(sensor.id(), k -> new LongAdder()).increment();
            return CompletableFuture.completedFuture(Reading.disconnected(sensor.id(), Micros.now(), 0, "sensor "
                    + sensor.id() + " was not found on its device when it was last asked for its channels"));
        }
        CompletableFuture<Reading> reading = sensor.channel() != null && Channels.READ.equals(commandId)
                ? lane.read(sensor.id(), sensor.channel(), tick)
                : lane.call(sensor.id(), () -> invoke(sensor, commandId, arguments, Micros.now()));
        return reading.thenApply(r -> {
            if (r.status().failed()) {
                readErrors.computeIfAbsent(sensor.id(), k -> new LongAdder()).increment();
            }
            return inUnit(sensor, commandId, r);
        });
    }

    /** The reading in the unit of its command's values, unless it has a unit of its own. */
    private static Reading inUnit(SensorEntry sensor, String commandId, Reading r) {
        if (!r.unit().isEmpty()) {
            return r;
        }
        String unit = sensor.unit(commandId);
        return unit.isEmpty() ? r : r.withUnit(unit);
    }

    /** Whether reading the sensor waits for a device's lane: a stream then reads it with {@link #readLater}. */
    public boolean onDeviceLane(SensorEntry sensor) {
        return sensor.protocol().lane() != null;
    }

    /** Whether a command changes a device, so that only an admin may execute it: writing a channel. */
    public boolean writesDevice(String sensorId, String commandId) {
        SensorEntry e = sensors.get(sensorId);
        return e != null && e.channel() != null && Channels.WRITE.equals(commandId);
    }

    /** Calls the protocol once: a command of a sensor of its own, or a read or write of a channel. */
    private static Reading invoke(SensorEntry sensor, String commandId, Map<String, String> arguments, long now)
            throws Exception {
        String id = sensor.id();
        SensorProtocol protocol = sensor.protocol().protocol();
        ChannelConfig channel = sensor.channel();
        if (channel == null) {
            Measurement m = protocol.measure(id, commandId, arguments);
            if (m == null || m.value() instanceof Value.Absent) {
                return Reading.unavailable(id, now, 0, "sensor " + id + " gave no value for '" + commandId + "'");
            }
            return new Reading(id, now, 0, m.value(), Reading.Status.OK, "",
                    m.unit().isEmpty() ? sensor.unit(commandId) : m.unit(), m.deviceTimeMicros());
        }
        if (Channels.WRITE.equals(commandId)) {
            double value = Channels.written(arguments);
            protocol.write(channel, Channels.raw(channel, value));
            return Reading.ok(id, now, 0, Value.of(value));
        }
        List<ChannelValue> values = protocol.read(List.of(new ChannelRead(channel)));
        if (values == null || values.size() != 1 || values.get(0) == null) {
            return Reading.error(id, now, 0, "protocol " + sensor.protocol().name() + " gave no value for channel "
                    + channel.name());
        }
        return Channels.reading(id, channel, values.get(0), now);
    }

    /** The device of a protocol is disconnected: each of its sensors is reported so. */
    public void deviceDisconnected(String protocolName, String why) {
        setDisconnected(protocolName, true, why);
    }

    /** The device of a protocol is connected again: each of its sensors is reported back. */
    public void deviceReconnected(String protocolName) {
        setDisconnected(protocolName, false, "the device is connected again");
    }

    private void setDisconnected(String protocolName, boolean disconnected, String detail) {
        for (SensorEntry e : sensors.values()) {
            if (e.protocol().name().equals(protocolName)) {
                synchronized (e) {
                    SensorState before = e.state();
                    e.disconnected = disconnected;
                    announce(e, before, detail);
                }
            }
        }
    }

    /**
     * How many reads failed (an ERROR reading: the plugin threw; or a DISCONNECTED one), by
     * sensor id, since the agent started; sensors that never failed are absent.
     */
    public Map<String, Long> readErrors() {
        Map<String, Long> out = new TreeMap<>();
        readErrors.forEach((id, n) -> out.put(id, n.sum()));
        return out;
    }

    /** A stream of the sensor started: the sensor is streaming. */
    public void streamStarted(SensorEntry sensor) {
        synchronized (sensor) {
            SensorState before = sensor.state();
            sensor.activeStreams++;
            announce(sensor, before, "");
        }
    }

    /** A stream of the sensor ended: the sensor is idle when it was the last. */
    public void streamStopped(SensorEntry sensor) {
        synchronized (sensor) {
            SensorState before = sensor.state();
            sensor.activeStreams = Math.max(0, sensor.activeStreams - 1);
            announce(sensor, before, "");
        }
    }

    private void succeeded(SensorEntry sensor) {
        if (sensor.consecutiveFailures == 0 && !sensor.disconnected) {
            return;
        }
        synchronized (sensor) {
            SensorState before = sensor.state();
            sensor.consecutiveFailures = 0;
            if (sensor.disabled) {
                sensor.disabled = false;
                LOG.info("sensor {} reads again and is enabled", sensor.id());
            }
            if (sensor.disconnected) {
                sensor.disconnected = false;
                LOG.info("sensor {} is connected again", sensor.id());
            }
            announce(sensor, before, "reads again");
        }
    }

    private void disconnected(SensorEntry sensor, SensorDisconnectedException e) {
        if (sensor.disconnected) {
            return;
        }
        synchronized (sensor) {
            SensorState before = sensor.state();
            if (!sensor.disconnected) {
                sensor.disconnected = true;
                LOG.warn("sensor {} (protocol {}) is disconnected: {}", sensor.id(), sensor.protocol().name(),
                        message(e));
            }
            announce(sensor, before, message(e));
        }
    }

    private void failed(SensorEntry sensor, String commandId, Throwable e) {
        synchronized (sensor) {
            SensorState before = sensor.state();
            int n = ++sensor.consecutiveFailures;
            if (n == 1) {
                LOG.warn("sensor {} (protocol {}) failed to read '{}': {}", sensor.id(), sensor.protocol().name(),
                        commandId, message(e), e);
            } else {
                LOG.debug("sensor {} failed to read '{}' ({} in a row)", sensor.id(), commandId, n, e);
            }
            if (n >= DISABLE_AFTER_FAILURES && !sensor.disabled) {
                sensor.disabled = true;
                LOG.warn("sensor {} failed {} reads in a row and is reported disabled; it is still tried", sensor.id(),
                        n);
            }
            announce(sensor, before, sensor.disabled ? n + " consecutive failed reads" : "");
        }
    }

    private void announce(SensorEntry sensor, SensorState before, String detail) {
        SensorState after = sensor.state();
        if (after != before && sensors.get(sensor.id()) == sensor) {
            events.publishState(sensor.id(), after, detail);
        }
    }

    /**
     * The channels a protocol's device listed when asked ({@link
     * org.salgate.plugin.spi.SensorProtocol#discover}): each channel not configured and not known
     * yet becomes a sensor; a discovered sensor missing from the list is reported DISCONNECTED
     * until it is listed again. A channel whose sensor id another protocol's sensor has already is
     * left out, with a warning.
     *
     * @param live whether the protocol is still on the agent, asked under the registration lock, so
     *             that a discovery racing the protocol's removal adds nothing
     */
    void discovered(LoadedProtocol protocol, List<ChannelConfig> channels, BooleanSupplier live) {
        synchronized (writeLock) {
            if (!live.getAsBoolean()) {
                return;
            }
            ProtocolConfig config = protocol.config();
            Set<String> listed = new HashSet<>();
            List<SensorEntry> added = new ArrayList<>();
            Map<String, SensorEntry> next = new LinkedHashMap<>(sensors);
            for (ChannelConfig c : channels) {
                String id = config.sensorId(c);
                SensorEntry known = next.get(id);
                if (!listed.add(id)) {
                    continue;
                }
                if (protocol.channel(id) != null) { // configured: the configuration's channel wins
                    if (known != null && known.protocol() == protocol) {
                        learnUnit(known, c);
                    }
                    continue;
                }
                if (known == null) {
                    SensorEntry entry;
                    try {
                        entry = new SensorEntry(Channels.description(config, c).withProtocol(protocol.name()),
                                protocol, Channels.commands(c), c);
                    } catch (IllegalArgumentException e) {
                        LOG.warn("protocol {} found channel {} on its device, which cannot be served: {}",
                                protocol.name(), c.name(), e.getMessage());
                        continue;
                    }
                    next.put(id, entry);
                    added.add(entry);
                } else if (known.protocol() != protocol) {
                    LOG.warn("protocol {} found channel {} on its device, but sensor id {} is taken by protocol {};"
                            + " the channel is not served", protocol.name(), c.name(), id, known.protocol().name());
                } else if (known.discovered() && known.gone) {
                    setGone(known, false, "sensor " + id + " is found on its device again");
                }
            }
            for (SensorEntry e : sensors.values()) {
                if (e.protocol() == protocol && e.discovered() && !e.gone && !listed.contains(e.id())) {
                    setGone(e, true, "sensor " + e.id() + " is no longer found on its device");
                }
            }
            if (added.isEmpty()) {
                return;
            }
            sensors = Collections.unmodifiableMap(next);
            LOG.info("protocol {} found {} on its device", protocol.name(), Counts.of(added.size(), "new channel"));
            for (SensorEntry e : added) {
                events.publish(Event.Type.SENSOR_ADDED, e.id(), "protocol " + protocol.name() + ", discovered");
            }
        }
    }

    /**
     * A configured channel without a unit, neither scaled nor offset, takes the unit its device
     * gave when it listed the channel (an OPC UA variable's engineering unit).
     */
    private static void learnUnit(SensorEntry e, ChannelConfig listed) {
        ChannelConfig c = e.channel();
        if (c == null || !c.unit().isEmpty() || listed.unit().isEmpty() || c.scale() != 1 || c.offset() != 0) {
            return;
        }
        ChannelConfig learned = new ChannelConfig(c.name(), c.description(), listed.unit(), 1, 0, c.access(),
                c.min(), c.max(), c.attributes());
        ProtocolConfig config = e.protocol().config();
        e.serve(Channels.description(config, learned).withProtocol(config.name()), Channels.commands(learned),
                learned);
        if (e.protocol().lane() != null) {
            e.protocol().lane().learned(learned);
        }
        LOG.info("sensor {} is in {}, the unit its device gave", e.id(), listed.unit());
    }

    private void setGone(SensorEntry e, boolean gone, String detail) {
        synchronized (e) {
            SensorState before = e.state();
            e.gone = gone;
            announce(e, before, detail);
        }
        LOG.info("{}", detail);
    }

    // ---- registration

    /**
     * Registers the sensors of a protocol, all or none.
     *
     * @param onRegistered run once they are registered, before their events are published
     * @throws CallException with {@link ErrorCode#CONFLICT} when an id is taken
     */
    void registerAll(LoadedProtocol protocol, List<SensorDescription> descriptions,
                     Map<String, List<CommandDescription>> commands, Runnable onRegistered) throws CallException {
        List<SensorEntry> added = new ArrayList<>();
        synchronized (writeLock) {
            Map<String, SensorEntry> next = new LinkedHashMap<>(sensors);
            for (SensorDescription d : descriptions) {
                SensorEntry entry = new SensorEntry(d.withProtocol(protocol.name()), protocol,
                        commands.getOrDefault(d.id(), List.of()));
                if (next.putIfAbsent(d.id(), entry) != null) {
                    throw new CallException(ErrorCode.CONFLICT, "sensor id " + d.id() + " of protocol "
                            + protocol.name() + " is taken already by protocol " + next.get(d.id()).protocol().name()
                            + "; remove that sensor or configure the protocol to use other ids");
                }
                added.add(entry);
            }
            sensors = Collections.unmodifiableMap(next);
            onRegistered.run();
            for (SensorEntry e : added) {
                events.publish(Event.Type.SENSOR_ADDED, e.id(), "protocol " + protocol.name());
            }
        }
    }

    /** Removes every sensor of a protocol, ending their streams, with a removal event each. */
    void unregisterProtocol(String protocolName, String reason) {
        synchronized (writeLock) {
            for (SensorEntry e : sensors.values()) {
                if (e.protocol().name().equals(protocolName)) {
                    unregister(e, reason);
                }
            }
        }
    }

    private void unregister(SensorEntry entry, String reason) {
        Map<String, SensorEntry> next = new LinkedHashMap<>(sensors);
        next.remove(entry.id());
        sensors = Collections.unmodifiableMap(next);
        onRemoved.accept(entry.id(), reason);
        events.publish(Event.Type.SENSOR_REMOVED, entry.id(), reason);
    }

    /**
     * Adds a sensor from its SensorML description: the protocol it names must exist and accept it.
     *
     * @throws CallException INVALID_DOCUMENT, UNKNOWN_PROTOCOL, CONFLICT or UNSUPPORTED, saying why
     */
    public SensorInfo addSensor(String sensorMl, ProtocolManager protocols) throws CallException {
        SensorDescription d;
        try {
            d = SensorMl.read(sensorMl);
        } catch (DocumentException e) {
            throw new CallException(ErrorCode.INVALID_DOCUMENT, "the SensorML document is not valid: "
                    + e.getMessage());
        }
        LoadedProtocol protocol = protocols.get(d.protocol());
        synchronized (writeLock) {
            if (sensors.containsKey(d.id())) {
                throw new CallException(ErrorCode.CONFLICT, "sensor " + d.id()
                        + " exists already; remove it first or choose another id");
            }
            SensorDescription served;
            List<CommandDescription> commands;
            try {
                served = protocol.protocol().addSensor(d);
                commands = protocol.protocol().commands(served.id());
            } catch (PluginException e) {
                throw new CallException(ErrorCode.UNSUPPORTED, "protocol " + protocol.name()
                        + " did not add sensor " + d.id() + ": " + message(e));
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("protocol {} failed adding sensor {}", protocol.name(), d.id(), e);
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + protocol.name()
                        + " failed while adding sensor " + d.id() + ": " + message(e));
            }
            registerAll(protocol, List.of(served), Map.of(served.id(), commands == null ? List.of() : commands),
                    () -> { });
            LOG.info("sensor {} added to protocol {}", served.id(), protocol.name());
            return sensors.get(served.id()).info();
        }
    }

    /**
     * Removes a sensor: its protocol must agree; its streams end.
     *
     * @throws CallException UNKNOWN_SENSOR, or UNSUPPORTED when the protocol cannot remove it
     */
    public void removeSensor(String sensorId) throws CallException {
        synchronized (writeLock) {
            SensorEntry entry = get(sensorId);
            try {
                entry.protocol().protocol().removeSensor(sensorId);
            } catch (PluginException e) {
                throw new CallException(ErrorCode.UNSUPPORTED, "protocol " + entry.protocol().name()
                        + " did not remove sensor " + sensorId + ": " + message(e));
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("protocol {} failed removing sensor {}", entry.protocol().name(), sensorId, e);
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + entry.protocol().name()
                        + " failed while removing sensor " + sensorId + ": " + message(e));
            }
            unregister(entry, "sensor " + sensorId + " was removed");
            LOG.info("sensor {} removed", sensorId);
        }
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
