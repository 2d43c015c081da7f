package org.salgate.agent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.salgate.agent.endpoint.EndpointFactory;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.agent.stream.SlowConsumerSettings;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
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
    boolean runtimePluginLoading = true;
    SlowConsumerSettings slowConsumers = SlowConsumerSettings.DEFAULTS;
    final List<EndpointFactory> endpoints = new ArrayList<>();

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
     * Whether a protocol may name a plugin jar or directory to load at run time (parameter
     * {@code plugin.jar}); default true. Any client can add protocols, so turn this off where
     * clients are not trusted to load code on the agent's machine.
     */
    public AgentBuilder runtimePluginLoading(boolean allowed) {
        this.runtimePluginLoading = allowed;
        return this;
    }

    /** Adds an endpoint type beyond {@code os} and {@code virtual}, such as {@code agent}. */
    public AgentBuilder endpoint(EndpointFactory factory) {
        this.endpoints.add(Objects.requireNonNull(factory, "factory"));
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
