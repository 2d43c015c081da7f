package org.salgate.agent.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;

/**
 * A sensor known to the agent: its description, the protocol serving it, its commands (read from
 * the plugin once, when the sensor is registered) and its state. The state fields are guarded by
 * this object's monitor and changed only by {@link SensorManager}.
 */
public final class SensorEntry {

    /** What it serves: read and replaced whole, so that a reader never sees half of a change. */
    private record Served(SensorDescription description, Map<String, CommandDescription> commands,
                          ChannelConfig channel) {}

    private final SensorDescription registered;
    private final LoadedProtocol protocol;
    private final boolean discovered;
    private volatile Served served;

    int activeStreams;
    volatile int consecutiveFailures;
    boolean disabled;
    volatile boolean disconnected;
    /** A discovered channel the device no longer listed at its last discovery. */
    volatile boolean gone;

    SensorEntry(SensorDescription description, LoadedProtocol protocol, List<CommandDescription> commands) {
        this(description, protocol, commands, protocol.channel(description.id()), false);
    }

    /** A sensor of a channel the device's protocol discovered ({@code SensorProtocol#discover}). */
    SensorEntry(SensorDescription description, LoadedProtocol protocol, List<CommandDescription> commands,
                ChannelConfig discoveredChannel) {
        this(description, protocol, commands, discoveredChannel, true);
    }

    private SensorEntry(SensorDescription description, LoadedProtocol protocol, List<CommandDescription> commands,
                        ChannelConfig channel, boolean discovered) {
        this.registered = description;
        this.protocol = protocol;
        this.discovered = discovered;
        serve(description, commands, channel);
    }

    /**
     * Serves the sensor from now on with this description, commands and channel: a configured
     * channel without a unit, once its device said the unit.
     */
    void serve(SensorDescription description, List<CommandDescription> commands, ChannelConfig channel) {
        Map<String, CommandDescription> byId = new LinkedHashMap<>();
        for (CommandDescription c : commands) {
            byId.putIfAbsent(c.id(), c);
        }
        served = new Served(description, java.util.Collections.unmodifiableMap(byId), channel);
    }

    /** The description it was registered with, as the saved configuration has it. */
    SensorDescription registeredDescription() {
        return registered;
    }

    /**
     * Whether the sensor serves a channel its device listed when asked rather than one the
     * configuration names: it is found again at each start, so a saved configuration leaves it out.
     */
    public boolean discovered() {
        return discovered;
    }

    /** The device channel it serves, or null when it is a sensor of the plugin's own. */
    public ChannelConfig channel() {
        return served.channel();
    }

    /** The sensor id. */
    public String id() {
        return registered.id();
    }

    /** The sensor's description, with the name of the protocol serving it. */
    public SensorDescription description() {
        return served.description();
    }

    /** The protocol serving it. */
    public LoadedProtocol protocol() {
        return protocol;
    }

    /** Its commands by id, in the order the plugin lists them. */
    public Map<String, CommandDescription> commands() {
        return served.commands();
    }

    /**
     * The unit of the values a command of this sensor gives: the unit the command declares for its
     * response, else, when the sensor has a single output, that output's unit; empty for none.
     */
    public String unit(String commandId) {
        Served now = served;
        CommandDescription c = now.commands().get(commandId);
        if (c != null && !c.responseUnit().isEmpty()) {
            return c.responseUnit();
        }
        SensorDescription d = now.description();
        return d.outputs().size() == 1 ? d.outputs().get(0).unit() : "";
    }

    /** Its commands as a list. */
    public List<CommandDescription> commandList() {
        return new ArrayList<>(served.commands().values());
    }

    /** Its current state. */
    public synchronized SensorState state() {
        if (disconnected || gone) {
            return SensorState.DISCONNECTED;
        }
        if (disabled) {
            return SensorState.DISABLED;
        }
        return activeStreams > 0 ? SensorState.STREAMING : SensorState.IDLE;
    }

    /** How it is listed. */
    public SensorInfo info() {
        return new SensorInfo(id(), protocol.name(), state(), served.description().description());
    }
}
