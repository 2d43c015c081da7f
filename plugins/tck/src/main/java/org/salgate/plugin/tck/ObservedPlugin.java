package org.salgate.plugin.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.EndpointType;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;

/**
 * The plugin under test as the agent loads it, with the calls the agent makes to its protocols
 * recorded ({@link ProtocolCalls}). {@link #loader} makes the agent's plugin class loader
 * ({@link org.salgate.agent.AgentBuilder#pluginClassLoader}): its service list is the class path's
 * with the plugin under test, found there by its type, replaced by this class, which keeps the
 * plugin's type, description and endpoint types and hands every call on to it. The agent thus
 * loads, opens and calls the plugin as it would without the suite.
 */
public final class ObservedPlugin implements SensorPlugin {

    private static final String SERVICES = "META-INF/services/" + SensorPlugin.class.getName();
    /** The plugin the next instance wraps: the agent makes it while {@link #loader}'s caller starts it. */
    private static final ThreadLocal<Observation> STARTING = new ThreadLocal<>();

    private final Observation observation;

    /** Made by the agent's service lookup only, while {@link Observation#starting} runs. */
    public ObservedPlugin() {
        this.observation = STARTING.get();
        if (observation == null) {
            throw new IllegalStateException("ObservedPlugin wraps the plugin under test of a conformance suite only");
        }
    }

    @Override
    public String type() {
        return observation.plugin.type();
    }

    @Override
    public String description() {
        return observation.plugin.description();
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return observation.plugin.endpointTypes();
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        SensorProtocol protocol = observation.plugin.open(config, context);
        if (protocol == null) {
            return null;
        }
        ProtocolCalls calls = new ProtocolCalls(context.endpoint().target().isPresent(),
                protocol.concurrentRequests());
        observation.calls.put(config.name(), calls);
        return new Observed(protocol, calls);
    }

    /**
     * The plugin of {@code type} on {@code parent}'s class path, observed.
     *
     * @throws IllegalArgumentException when no plugin of that type is registered there
     */
    static Observation observe(ClassLoader parent, String type) {
        List<String> names = new ArrayList<>();
        SensorPlugin found = null;
        var providers = ServiceLoader.load(SensorPlugin.class, parent).iterator();
        while (true) {
            try {
                if (!providers.hasNext()) {
                    break;
                }
                SensorPlugin p = providers.next();
                if (found == null && type.equals(p.type())) {
                    found = p;
                    names.add(ObservedPlugin.class.getName());
                } else {
                    names.add(p.getClass().getName());
                }
            } catch (ServiceConfigurationError e) {
                // the agent skips it too, and logs why
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("no plugin of type '" + type + "' is registered in " + SERVICES
                    + " on the test's class path");
        }
        try {
            Path list = Files.createTempFile("plugin-tck-services", ".txt");
            list.toFile().deleteOnExit();
            Files.writeString(list, String.join("\n", names) + "\n", StandardCharsets.UTF_8);
            return new Observation(found, new ServicesLoader(parent, list.toUri().toURL()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the suite's plugin list", e);
        }
    }

    /** A plugin under observation: the class loader to start agents with, and what they called. */
    static final class Observation {
        private final SensorPlugin plugin;
        private final ClassLoader loader;
        private final Map<String, ProtocolCalls> calls = new ConcurrentHashMap<>();

        private Observation(SensorPlugin plugin, ClassLoader loader) {
            this.plugin = plugin;
            this.loader = loader;
        }

        /** Runs {@code start}, which starts an agent on {@link #loader()}. */
        <T, E extends Exception> T starting(StartAction<T, E> start) throws E {
            STARTING.set(this);
            try {
                return start.run(loader);
            } finally {
                STARTING.remove();
            }
        }

        /** The calls made to the protocol of this name, opened last. */
        ProtocolCalls calls(String protocol) {
            ProtocolCalls c = calls.get(protocol);
            if (c == null) {
                throw new AssertionError("the plugin under test never opened protocol " + protocol);
            }
            return c;
        }
    }

    /** Starts an agent with a plugin class loader. */
    interface StartAction<T, E extends Exception> {
        T run(ClassLoader plugins) throws E;
    }

    /** The parent's classes and resources, but for the plugin list. */
    private static final class ServicesLoader extends ClassLoader {
        private final URL services;

        ServicesLoader(ClassLoader parent, URL services) {
            super("plugin-tck", parent);
            this.services = services;
        }

        @Override
        public URL getResource(String name) {
            return SERVICES.equals(name) ? services : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return SERVICES.equals(name) ? Collections.enumeration(List.of(services)) : super.getResources(name);
        }
    }

    /** A protocol whose requests are recorded on their way to the plugin's. */
    private static final class Observed implements SensorProtocol {
        private final SensorProtocol protocol;
        private final ProtocolCalls calls;

        Observed(SensorProtocol protocol, ProtocolCalls calls) {
            this.protocol = protocol;
            this.calls = calls;
        }

        @Override
        public List<SensorDescription> sensors() {
            return protocol.sensors();
        }

        @Override
        public List<CommandDescription> commands(String sensorId) {
            return protocol.commands(sensorId);
        }

        @Override
        public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
            calls.begin("execute " + sensorId + " " + commandId);
            try {
                return protocol.execute(sensorId, commandId, arguments);
            } finally {
                calls.end();
            }
        }

        @Override
        public SensorDescription addSensor(SensorDescription description) throws PluginException {
            return protocol.addSensor(description);
        }

        @Override
        public void removeSensor(String sensorId) throws PluginException {
            protocol.removeSensor(sensorId);
        }

        @Override
        public void connect() throws Exception {
            calls.begin("connect");
            try {
                protocol.connect();
            } finally {
                calls.end();
            }
        }

        @Override
        public void disconnect() {
            protocol.disconnect();
        }

        @Override
        public boolean concurrentRequests() {
            return protocol.concurrentRequests();
        }

        @Override
        public boolean pushes(org.salgate.sensorml.ChannelConfig channel) {
            return protocol.pushes(channel);
        }

        @Override
        public List<ChannelConfig> discover() throws Exception {
            return protocol.discover();
        }

        @Override
        public List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
            calls.begin("read " + String.join(",", reads.stream().map(r -> r.channel().name()).toList()));
            try {
                return protocol.read(reads);
            } finally {
                calls.end();
            }
        }

        @Override
        public void write(ChannelConfig channel, Value raw) throws Exception {
            calls.begin("write " + channel.name());
            try {
                protocol.write(channel, raw);
            } finally {
                calls.end();
            }
        }

        @Override
        public void close() {
            protocol.close();
            calls.closed(true);
        }
    }
}
