package org.salgate.agent.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.salgate.agent.device.Channels;
import org.salgate.agent.device.DeviceLane;
import org.salgate.agent.device.PushedValues;
import org.salgate.agent.endpoint.EndpointException;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.agent.plugin.PluginDirectories;
import org.salgate.agent.plugin.PluginLoadException;
import org.salgate.agent.plugin.PluginRegistry;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.ProtocolInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol manager of the communication layer: opens protocols from PCML entries (finding
 * the plugin by type, or loading it from the path in parameter {@value #PLUGIN_JAR} or
 * {@value #PLUGIN_PATH}), registers their sensors, removes them, and reports the platform
 * configuration as it runs, with the sensors added and removed since each protocol opened (see
 * {@link SensorChanges}). Adding is all or nothing. Lookups are lock-free; changes are serialised.
 */
public final class ProtocolManager implements AutoCloseable {

    /** Protocol parameter naming a plugin jar (or class directory) to load at run time. */
    public static final String PLUGIN_JAR = "plugin.jar";
    /** Same as {@link #PLUGIN_JAR}. */
    public static final String PLUGIN_PATH = "plugin.path";

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolManager.class);

    private final PluginRegistry plugins;
    private final Endpoints endpoints;
    private final SensorManager sensors;
    private final EventBus events;
    private final PluginDirectories pluginDirectories;
    private final Object writeLock = new Object();
    private volatile Map<String, LoadedProtocol> protocols = Map.of();

    /**
     * @param pluginDirectories where a protocol may name a plugin jar or directory to load from
     */
    public ProtocolManager(PluginRegistry plugins, Endpoints endpoints, SensorManager sensors, EventBus events,
                           PluginDirectories pluginDirectories) {
        this.plugins = plugins;
        this.endpoints = endpoints;
        this.sensors = sensors;
        this.events = events;
        this.pluginDirectories = pluginDirectories;
    }

    /** Opens each protocol of a platform on its own: one that fails is logged and left out. */
    public void openAll(PlatformConfig platform) {
        for (ProtocolConfig p : platform.protocols()) {
            try {
                add(new PlatformConfig(List.of(p)));
            } catch (CallException e) {
                LOG.error("protocol {} (type {}) is not loaded: {}", p.name(), p.type(), e.getMessage());
            }
        }
    }

    /** Adds the protocols of a PCML document; see {@link #add(PlatformConfig)}. */
    public List<ProtocolInfo> addPcml(String pcml) throws CallException {
        PlatformConfig config;
        try {
            config = Pcml.read(pcml);
        } catch (DocumentException e) {
            throw new CallException(ErrorCode.INVALID_DOCUMENT, "the PCML document is not valid: " + e.getMessage());
        }
        return add(config);
    }

    /**
     * Opens protocols and registers their sensors, all or none.
     *
     * @return the protocols added
     * @throws CallException CONFLICT (name or sensor id taken), UNKNOWN_PROTOCOL (no plugin of the
     *                       type), INVALID_ARGUMENT (endpoint or plugin path), PLUGIN_FAILURE (open failed)
     */
    public List<ProtocolInfo> add(PlatformConfig config) throws CallException {
        if (config.protocols().isEmpty()) {
            throw new CallException(ErrorCode.INVALID_DOCUMENT, "the platform configuration names no protocol");
        }
        synchronized (writeLock) {
            Set<String> names = new HashSet<>(protocols.keySet());
            for (ProtocolConfig p : config.protocols()) {
                if (!names.add(p.name())) {
                    throw new CallException(ErrorCode.CONFLICT, "a protocol named '" + p.name()
                            + "' exists already; remove it first or choose another name");
                }
            }
            List<Opened> opened = new ArrayList<>();
            try {
                for (ProtocolConfig p : config.protocols()) {
                    opened.add(open(p));
                }
                List<ProtocolInfo> added = new ArrayList<>();
                for (Opened o : opened) {
                    sensors.registerAll(o.protocol(), o.sensors(), o.commands(), () -> {
                        Map<String, LoadedProtocol> next = new LinkedHashMap<>(protocols);
                        next.put(o.protocol().name(), o.protocol());
                        protocols = Collections.unmodifiableMap(next);
                        events.publish(Event.Type.PROTOCOL_ADDED, o.protocol().name(),
                                "type " + o.protocol().config().type());
                    });
                    added.add(info(o.protocol()));
                    if (o.protocol().lane() != null) {
                        o.protocol().lane().start();
                    }
                    LOG.info("protocol {} (type {}, endpoint {}) loaded with {}", o.protocol().name(),
                            o.protocol().config().type(), o.protocol().endpoint().spec(),
                            Counts.of(o.sensors().size(), "sensor"));
                }
                return added;
            } catch (CallException | RuntimeException e) {
                for (Opened o : opened) {
                    if (protocols.get(o.protocol().name()) == o.protocol()) {
                        removeLocked(o.protocol(), "adding the platform failed");
                    } else {
                        closeQuietly(o.protocol());
                    }
                }
                throw e;
            }
        }
    }

    private record Opened(LoadedProtocol protocol, List<SensorDescription> sensors,
                          Map<String, List<CommandDescription>> commands) {}

    private Opened open(ProtocolConfig entry) throws CallException {
        ProtocolConfig p = SensorChanges.pluginConfig(entry);
        Endpoint endpoint;
        try {
            endpoint = endpoints.parse(p.endpoint());
        } catch (EndpointException e) {
            throw new CallException(ErrorCode.INVALID_ARGUMENT, "protocol " + p.name() + ": " + e.getMessage());
        }
        SensorPlugin plugin = plugin(p);
        SensorProtocol instance;
        PushedValues pushed = new PushedValues(p);
        try {
            instance = plugin.open(p, new Context(endpoint, pushed));
        } catch (PluginException e) {
            throw new CallException(ErrorCode.PLUGIN_FAILURE, "plugin " + p.type() + " could not open protocol "
                    + p.name() + ": " + SensorManager.message(e));
        } catch (RuntimeException | LinkageError e) {
            LOG.error("plugin {} failed opening protocol {}", p.type(), p.name(), e);
            throw new CallException(ErrorCode.PLUGIN_FAILURE, "plugin " + p.type() + " failed opening protocol "
                    + p.name() + ": " + SensorManager.message(e));
        }
        if (instance == null) {
            throw new CallException(ErrorCode.PLUGIN_FAILURE, "plugin " + p.type() + " opened no protocol for "
                    + p.name());
        }
        pushed.opened(instance);
        try {
            List<SensorDescription> opened = new ArrayList<>(sensorsOf(p.name(), instance));
            SensorChanges.applyTo(entry, instance);
            List<SensorDescription> list = new ArrayList<>(SensorChanges.isEmpty(entry) ? opened
                    : sensorsOf(p.name(), instance));
            Map<String, List<CommandDescription>> commands = new LinkedHashMap<>();
            for (SensorDescription d : list) {
                List<CommandDescription> c = instance.commands(d.id());
                commands.put(d.id(), c == null ? List.of() : List.copyOf(c));
            }
            for (ChannelConfig c : p.channels()) {
                SensorDescription d = Channels.description(p, c);
                opened.add(d);
                list.add(d);
                commands.put(d.id(), Channels.commands(c));
            }
            DeviceLane lane = endpoint.target().isPresent()
                    ? new DeviceLane(p.name(), endpoint.spec(), instance, laneSettings(p), new DeviceLane.Listener() {
                        @Override
                        public void disconnected(String why) {
                            sensors.deviceDisconnected(p.name(), why);
                        }

                        @Override
                        public void reconnected() {
                            sensors.deviceReconnected(p.name());
                        }

                        @Override
                        public void discovered(List<ChannelConfig> channels) {
                            find(p.name()).filter(loaded -> loaded.protocol() == instance).ifPresent(loaded ->
                                    sensors.discovered(loaded, channels, () -> protocols.get(p.name()) == loaded));
                        }
                    }, pushed)
                    : null;
            return new Opened(new LoadedProtocol(p, plugin, endpoint, instance, opened, lane), list, commands);
        } catch (CallException e) {
            closeQuietly(p.name(), instance);
            throw e;
        } catch (RuntimeException | LinkageError e) {
            closeQuietly(p.name(), instance);
            LOG.error("protocol {} failed listing its sensors", p.name(), e);
            throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + p.name()
                    + " failed listing its sensors: " + SensorManager.message(e));
        }
    }

    private static DeviceLane.Settings laneSettings(ProtocolConfig p) throws CallException {
        try {
            return DeviceLane.Settings.of(p);
        } catch (IllegalArgumentException e) {
            throw new CallException(ErrorCode.INVALID_ARGUMENT, "protocol " + p.name() + ": " + e.getMessage());
        }
    }

    /** The sensors a protocol serves, as the agent registers them: served by that protocol. */
    private static List<SensorDescription> sensorsOf(String name, SensorProtocol instance) {
        return instance.sensors().stream().map(d -> d.withProtocol(name)).toList();
    }

    private SensorPlugin plugin(ProtocolConfig p) throws CallException {
        String path = p.parameter(PLUGIN_JAR, p.parameter(PLUGIN_PATH, null));
        if (path != null && !path.isBlank()) {
            try {
                return plugins.loadFrom(pluginDirectories.resolve(path), p.type());
            } catch (PluginLoadException e) {
                throw new CallException(e.code(), "protocol " + p.name() + ": " + e.getMessage());
            }
        }
        return plugins.find(p.type()).orElseThrow(() -> new CallException(ErrorCode.UNKNOWN_PROTOCOL,
                "no plugin of type '" + p.type() + "' is loaded (known: " + String.join(", ", plugins.types().keySet())
                        + "); name its jar in parameter " + PLUGIN_JAR));
    }

    /**
     * Removes a protocol: its sensors are removed (their streams end) and it is closed.
     *
     * @throws CallException UNKNOWN_PROTOCOL when there is none by that name
     */
    public void remove(String name) throws CallException {
        synchronized (writeLock) {
            removeLocked(get(name), "protocol " + name + " was removed");
            LOG.info("protocol {} removed", name);
        }
    }

    private void removeLocked(LoadedProtocol p, String reason) {
        Map<String, LoadedProtocol> next = new LinkedHashMap<>(protocols);
        next.remove(p.name());
        protocols = Collections.unmodifiableMap(next); // first, so that its lane's discoveries are let go
        sensors.unregisterProtocol(p.name(), reason);
        closeQuietly(p);
        events.publish(Event.Type.PROTOCOL_REMOVED, p.name(), reason);
    }

    /** The protocol with this name, if any. */
    public Optional<LoadedProtocol> find(String name) {
        return Optional.ofNullable(protocols.get(name));
    }

    /**
     * The protocol with this name.
     *
     * @throws CallException UNKNOWN_PROTOCOL when there is none
     */
    public LoadedProtocol get(String name) throws CallException {
        LoadedProtocol p = protocols.get(name);
        if (p == null) {
            throw new CallException(ErrorCode.UNKNOWN_PROTOCOL, "there is no protocol '" + name
                    + "' on this agent; its protocols are " + (protocols.isEmpty() ? "none"
                    : String.join(", ", protocols.keySet())));
        }
        return p;
    }

    /** The protocols, in the order they were added. */
    public List<ProtocolInfo> list() {
        List<ProtocolInfo> out = new ArrayList<>();
        for (LoadedProtocol p : protocols.values()) {
            out.add(info(p));
        }
        return out;
    }

    /**
     * The configuration of the platform as it runs: the running protocols, each with the sensors
     * added and removed since it was opened (see {@link SensorChanges}), so that it starts the same
     * platform again.
     */
    public PlatformConfig config() {
        List<ProtocolConfig> out = new ArrayList<>();
        for (LoadedProtocol p : protocols.values()) {
            out.add(SensorChanges.entry(p.config(), p.opened(), sensors.descriptionsOf(p.name())));
        }
        return new PlatformConfig(out);
    }

    /**
     * The configuration as a PCML document; see {@link #config()}.
     *
     * @throws CallException PLUGIN_FAILURE when a sensor added at run time cannot be written as SensorML
     */
    public String configXml() throws CallException {
        try {
            return Pcml.write(config());
        } catch (IllegalArgumentException e) {
            throw new CallException(ErrorCode.PLUGIN_FAILURE, "a protocol serves a sensor that cannot be written"
                    + " as SensorML: " + e.getMessage());
        }
    }

    private ProtocolInfo info(LoadedProtocol p) {
        return new ProtocolInfo(p.name(), p.config().type(), p.endpoint().spec(), sensors.countOf(p.name()));
    }

    /** Closes every protocol, without events. */
    @Override
    public void close() {
        synchronized (writeLock) {
            for (LoadedProtocol p : protocols.values()) {
                closeQuietly(p);
            }
            protocols = Map.of();
        }
    }

    /** Closes a protocol: its device's lane first, which disconnects it, then the protocol. */
    private static void closeQuietly(LoadedProtocol p) {
        if (p.lane() != null) {
            try {
                p.lane().close();
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("protocol {} failed to stop its device lane", p.name(), e);
            }
        }
        closeQuietly(p.name(), p.protocol());
    }

    private static void closeQuietly(String name, SensorProtocol protocol) {
        try {
            protocol.close();
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("protocol {} failed to close", name, e);
        }
    }

    private record Context(Endpoint endpoint, PushedValues push) implements PluginContext {
        @Override
        public long nowMicros() {
            return Micros.now();
        }
    }
}
