package org.salgate.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.core.ProtocolManager;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.endpoint.EndpointFactory;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.agent.plugin.PluginRegistry;
import org.salgate.agent.session.AgentServerHandler;
import org.salgate.agent.session.RequestDispatcher;
import org.salgate.agent.session.WorkerPool;
import org.salgate.agent.stream.StreamRegistry;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.wire.Codecs;
import org.salgate.wire.ProtocolInfo;
import org.salgate.wire.SensorInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running SAL agent: its protocols and sensors, served to clients over one transport. Made with
 * {@link #builder()}; {@link #close()} stops it.
 */
public final class Agent implements AutoCloseable {

    /** The port an agent listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 7431;
    /** Dummy sensors in the default platform. */
    public static final int DEFAULT_DUMMY_SENSORS = 20;

    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

    private final String agentId;
    private final String transportName;
    private final String codecName;
    private final EventBus events;
    private final StreamRegistry streams;
    private final SensorManager sensors;
    private final PluginRegistry plugins;
    private final ProtocolManager protocols;
    private final ThreadPoolExecutor workers;
    private final AgentServerHandler handler;
    private final AtomicBoolean closed = new AtomicBoolean();
    private TransportServer server;

    private Agent(AgentBuilder b, String transportName, String codecName) {
        this.agentId = b.agentId != null ? b.agentId : defaultAgentId();
        this.transportName = transportName;
        this.codecName = codecName;
        this.events = new EventBus();
        this.streams = new StreamRegistry(b.streamThreads, b.slowConsumers);
        this.sensors = new SensorManager(events, streams::endForSensor);
        this.plugins = PluginRegistry.load(b.pluginClassLoader);
        Endpoints endpoints = Endpoints.standard();
        for (EndpointFactory f : b.endpoints) {
            endpoints.register(f);
        }
        this.protocols = new ProtocolManager(plugins, endpoints, sensors, events, b.runtimePluginLoading);
        this.workers = WorkerPool.create(b.workerThreads, b.maxQueuedRequests);
        RequestDispatcher dispatcher = new RequestDispatcher(sensors, protocols, streams, events,
                b.maxStreamsPerSession);
        this.handler = new AgentServerHandler(agentId, codecName, dispatcher, streams, events, workers);
    }

    /** A builder with the defaults described on each of its methods. */
    public static AgentBuilder builder() {
        return new AgentBuilder();
    }

    /**
     * The default platform: {@code dummySensors} dummy sensors (protocol {@code dummy}, type
     * dummy, endpoint {@code virtual}, parameter {@code sensors}) and the OS sensors (protocol
     * {@code os}, type os, endpoint {@code os}).
     */
    public static PlatformConfig defaultPlatform(int dummySensors) {
        return defaultPlatform(dummySensors, -1);
    }

    /**
     * The default platform with the dummy payload size set (parameter {@code payloadBytes});
     * a negative size keeps the plugin's default.
     */
    public static PlatformConfig defaultPlatform(int dummySensors, int payloadBytes) {
        Map<String, String> dummy = payloadBytes < 0
                ? Map.of("sensors", Integer.toString(dummySensors))
                : Map.of("sensors", Integer.toString(dummySensors), "payloadBytes", Integer.toString(payloadBytes));
        return new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", Endpoints.VIRTUAL, dummy),
                new ProtocolConfig("os", "os", Endpoints.OS, Map.of())));
    }

    static Agent start(AgentBuilder b) throws IOException {
        TransportProvider provider = b.transport != null ? b.transport : Transports.byName(b.transportName);
        ServerOptions.Builder options = ServerOptions.builder().host(b.host).port(b.port).codec(Codecs.byName(b.codec));
        b.serverOptions.accept(options);
        ServerOptions serverOptions = options.build();
        Agent agent = new Agent(b, provider.name(), serverOptions.codec().name());
        try {
            agent.protocols.openAll(b.platform != null ? b.platform : defaultPlatform(b.dummySensors));
            agent.server = provider.createServer(serverOptions);
            agent.server.start(agent.handler);
        } catch (IOException | RuntimeException | Error e) {
            agent.close();
            throw e;
        }
        LOG.info("agent {} listening on {} with transport {} and codec {}: {} protocols, {} sensors", agent.agentId,
                agent.address(), agent.transportName, agent.codecName, agent.protocols().size(),
                agent.sensors().size());
        return agent;
    }

    /** Where it listens, with the real port when port 0 was asked. */
    public InetSocketAddress address() {
        return server.localAddress();
    }

    /** The port it listens on. */
    public int port() {
        return address().getPort();
    }

    /** The name of its transport. */
    public String transportName() {
        return transportName;
    }

    /** The codec its clients use. */
    public String codecName() {
        return codecName;
    }

    /** The name it gives in its hello reply. */
    public String agentId() {
        return agentId;
    }

    /** Its sensors now. */
    public List<SensorInfo> sensors() {
        return sensors.list(false);
    }

    /** Its protocols now. */
    public List<ProtocolInfo> protocols() {
        return protocols.list();
    }

    /** How many client sessions are open. */
    public int sessionCount() {
        return handler.sessionCount();
    }

    /** How many streams are set up or running, over all sessions. */
    public int streamCount() {
        return streams.size();
    }

    /** The plugin types it knows, each with where it was loaded from. */
    public Map<String, String> pluginTypes() {
        return plugins.types();
    }

    /** Ends every stream (clients get StreamEnded), closes the sessions and the protocols. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        streams.endAll("the agent is stopping");
        if (server != null) {
            try {
                server.close();
            } catch (RuntimeException e) {
                LOG.warn("the transport failed to close", e);
            }
        }
        workers.shutdown();
        try {
            if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("requests still running after 2 s; interrupting them");
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        streams.close();
        protocols.close();
        plugins.close();
        LOG.debug("agent {} closed", agentId);
    }

    private static String defaultAgentId() {
        String host = System.getenv("HOSTNAME");
        return "salgate@" + (host == null || host.isBlank() ? "localhost" : host);
    }
}
