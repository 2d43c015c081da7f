package org.salgate.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.salgate.agent.endpoint.EndpointFactory;
import org.salgate.agent.endpoint.DeviceTargets;
import org.salgate.agent.endpoint.RelayTargets;
import org.salgate.agent.plugin.PluginDirectories;
import org.salgate.agent.session.Tokens;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.agent.stream.SlowConsumerSettings;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.Codecs;

/** Configures and starts an {@link Agent}. Made with {@link Agent#builder()}; not thread-safe. */
public final class AgentBuilder {

    String transportName = Transports.DEFAULT;
    TransportProvider transport;
    String host = "127.0.0.1";
    int port = Agent.DEFAULT_PORT;
    String codec = Codecs.DEFAULT;
    PlatformConfig platform;
    int dummySensors = Agent.DEFAULT_DUMMY_SENSORS;
    ClassLoader pluginClassLoader = Agent.class.getClassLoader();
    Consumer<ServerOptions.Builder> serverOptions = b -> { };
    String agentId;
    int workerThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    int maxQueuedRequests = 1024;
    int streamThreads = Math.max(2, Runtime.getRuntime().availableProcessors() / 2);
    int maxStreamsPerSession = 1024;
    PluginDirectories pluginDirectories = PluginDirectories.none();
    RelayTargets relayTargets = RelayTargets.none();
    DeviceTargets deviceTargets = DeviceTargets.none();
    Tokens tokens;
    SlowConsumerSettings slowConsumers = SlowConsumerSettings.DEFAULTS;
    final List<EndpointFactory> endpoints = new ArrayList<>();
    TlsConfig tls;
    final List<AgentExtension> extensions = new ArrayList<>();
    HandlerDecorator decorator = (door, handler) -> handler;

    AgentBuilder() {}

    /** The transport, by name, looked up with {@link Transports}; default {@code netty}. */
    public AgentBuilder transport(String name) {
        this.transportName = Objects.requireNonNull(name, "name");
        this.transport = null;
        return this;
    }

    /** The transport, given directly. */
    public AgentBuilder transport(TransportProvider provider) {
        this.transport = Objects.requireNonNull(provider, "provider");
        return this;
    }

    /** The address to listen on; default {@code 127.0.0.1}. */
    public AgentBuilder host(String host) {
        this.host = Objects.requireNonNull(host, "host");
        return this;
    }

    /** The port to listen on; default {@link Agent#DEFAULT_PORT}; 0 picks a free one. */
    public AgentBuilder port(int port) {
        this.port = port;
        return this;
    }

    /** The codec clients must use after the hello; default {@code protobuf}. */
    public AgentBuilder codec(String name) {
        this.codec = Objects.requireNonNull(name, "name");
        return this;
    }

    /** The protocols opened at start; default {@link Agent#defaultPlatform(int)}. */
    public AgentBuilder platform(PlatformConfig config) {
        this.platform = Objects.requireNonNull(config, "config");
        return this;
    }

    /** How many dummy sensors the default platform has; default 20. */
    public AgentBuilder dummySensors(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("dummy sensors must be 0 or more, got " + n);
        }
        this.dummySensors = n;
        return this;
    }

    /** Where {@link org.salgate.plugin.spi.SensorPlugin}s are looked up; default the agent's own loader. */
    public AgentBuilder pluginClassLoader(ClassLoader loader) {
        this.pluginClassLoader = Objects.requireNonNull(loader, "loader");
        return this;
    }

    /** Adjusts the transport's server options (frame size, water marks, I/O threads...). */
    public AgentBuilder serverOptions(Consumer<ServerOptions.Builder> tweak) {
        this.serverOptions = Objects.requireNonNull(tweak, "tweak");
        return this;
    }

    /** The name the agent gives in its hello reply; default {@code salgate@<host name>}. */
    public AgentBuilder agentId(String id) {
        this.agentId = Objects.requireNonNull(id, "id");
        return this;
    }

    /** Threads of the pool that runs plugin calls; default the number of processors, at least 2. */
    public AgentBuilder workerThreads(int n) {
        this.workerThreads = positive(n, "worker threads");
        return this;
    }

    /** Requests that may wait for a worker before new ones are answered OVERLOADED; default 1024. */
    public AgentBuilder maxQueuedRequests(int n) {
        this.maxQueuedRequests = positive(n, "queued requests");
        return this;
    }

    /** Threads of the stream scheduler; default half the processors, at least 2. */
    public AgentBuilder streamThreads(int n) {
        this.streamThreads = positive(n, "stream threads");
        return this;
    }

    /**
     * How streams treat clients that read slower than they produce: the default policy, the
     * drop-oldest ring and the disconnect delay; default block, 64 readings, 10 s. The bound that
     * makes a client slow is the server's ({@link #serverOptions}: water marks, max queued bytes).
     */
    public AgentBuilder slowConsumers(SlowConsumerSettings settings) {
        this.slowConsumers = java.util.Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** Streams one connection may have at once; default 1024. */
    public AgentBuilder maxStreamsPerSession(int n) {
        this.maxStreamsPerSession = positive(n, "streams per session");
        return this;
    }

    /**
     * The directories a protocol may load a plugin jar or class directory from at run time
     * (parameter {@code plugin.jar}); default none, so plugins come from the class path only.
     *
     * @throws IllegalArgumentException naming a path that is not an existing directory
     */
    public AgentBuilder pluginDirectories(List<Path> directories) {
        this.pluginDirectories = PluginDirectories.of(directories);
        return this;
    }

    /**
     * The lower agents ({@code HOST:PORT}) a protocol of type {@code agent} may connect to;
     * default none.
     *
     * @throws IllegalArgumentException naming an entry that is not {@code HOST:PORT}
     */
    public AgentBuilder relayTargets(List<String> hostPorts) {
        this.relayTargets = RelayTargets.of(hostPorts);
        return this;
    }

    /**
     * The devices protocols may reach through the endpoint types plugins bring: {@code HOST:PORT},
     * {@code HOST:*} or {@code /dev/PATH} (with {@code *} for any characters but {@code /}); default
     * none. See {@link DeviceTargets}.
     *
     * @throws IllegalArgumentException naming an entry that is none of these
     */
    public AgentBuilder deviceTargets(List<String> devices) {
        this.deviceTargets = DeviceTargets.of(devices);
        return this;
    }

    /**
     * The bearer tokens a client's hello must carry one of, each with its role; default none,
     * and then every client is admin. See {@link Tokens#read}.
     */
    public AgentBuilder tokens(Tokens tokens) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        return this;
    }

    /** Serves clients over TLS with this server config; null (the default) serves plain TCP. */
    public AgentBuilder tls(TlsConfig config) {
        this.tls = config;
        return this;
    }

    /** Adds an endpoint type beyond {@code os} and {@code virtual}, such as {@code agent}. */
    public AgentBuilder endpoint(EndpointFactory factory) {
        this.endpoints.add(Objects.requireNonNull(factory, "factory"));
        return this;
    }

    /** Adds something to start once the agent listens and to close when it stops (a bridge, an endpoint). */
    public AgentBuilder extension(AgentExtension extension) {
        this.extensions.add(Objects.requireNonNull(extension, "extension"));
        return this;
    }

    /** Wraps the agent's handler for each door (transport or in-process session), such as to count what passes. */
    public AgentBuilder decorateHandler(HandlerDecorator decorator) {
        this.decorator = Objects.requireNonNull(decorator, "decorator");
        return this;
    }

    /**
     * Opens the platform's protocols and starts listening; returns when it listens.
     *
     * @throws IllegalArgumentException naming the available ones when the transport or codec is unknown
     * @throws IOException if the transport cannot bind
     */
    public Agent start() throws IOException {
        return Agent.start(this);
    }

    private static int positive(int n, String what) {
        if (n <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + n);
        }
        return n;
    }
}
