package org.salgate.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.salgate.agent.core.CallException;
import org.salgate.agent.core.Counts;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.core.ProtocolManager;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.endpoint.EndpointFactory;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.agent.plugin.PluginRegistry;
import org.salgate.agent.session.AgentServerHandler;
import org.salgate.agent.session.SessionLimits;
import org.salgate.agent.session.RequestDispatcher;
import org.salgate.agent.session.Role;
import org.salgate.agent.session.Tokens;
import org.salgate.agent.session.WorkerPool;
import org.salgate.agent.stream.StreamRegistry;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.Codecs;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.SensorInfo;
import org.salgate.model.StreamCounts;
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
    /** The transport's door: the agent's handler within the sessions' budget. */
    private final SessionLimits limits;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** In-process sessions count down from -1, apart from the transport's, which count up from 0 or 1. */
    private final AtomicLong inProcessSessionIds = new AtomicLong();
    /** What an in-process session's hello carries: a reader token made at start when the agent requires tokens. */
    private final String inProcessCredentials;
    private final List<AutoCloseable> extensions = new ArrayList<>();
    private final HandlerDecorator decorator;
    private final Map<String, ServerHandler> doors = new ConcurrentHashMap<>();
    private TransportServer server;
    private String host;
    private boolean tls;
    private TlsConfig serverTls;

    private Agent(AgentBuilder b, String transportName, String codecName, ServerOptions.Limits limits) {
        this.agentId = b.agentId != null ? b.agentId : defaultAgentId();
        this.transportName = transportName;
        this.codecName = codecName;
        this.events = new EventBus();
        this.streams = new StreamRegistry(b.streamThreads, b.slowConsumers);
        this.sensors = new SensorManager(events, streams::endForSensor);
        Endpoints endpoints = Endpoints.standard(b.relayTargets, b.deviceTargets);
        for (EndpointFactory f : b.endpoints) {
            endpoints.register(f);
        }
        this.plugins = PluginRegistry.load(b.pluginClassLoader, endpoints);
        this.protocols = new ProtocolManager(plugins, endpoints, sensors, events, b.pluginDirectories);
        this.workers = WorkerPool.create(b.workerThreads, b.maxQueuedRequests);
        RequestDispatcher dispatcher = new RequestDispatcher(sensors, protocols, streams, events,
                b.maxStreamsPerSession);
        Tokens tokens = b.tokens;
        if (tokens != null) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            inProcessCredentials = HexFormat.of().formatHex(secret);
            tokens = tokens.with(inProcessCredentials, Role.READER);
        } else {
            inProcessCredentials = "";
        }
        this.handler = new AgentServerHandler(agentId, codecName, dispatcher, streams, events, workers, tokens);
        this.limits = new SessionLimits(handler, handler::isBusy, agentId, limits);
        this.decorator = b.decorator;
    }

    /**
     * The handler for one door's sessions: the agent's own, decorated once per door; the
     * transport's sessions are held to the {@link SessionLimits}, in-process ones are not.
     */
    private ServerHandler door(String name) {
        return doors.computeIfAbsent(name, n -> decorator.decorate(n, n.equals(transportName) ? limits : handler));
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
        ServerOptions.Builder options = ServerOptions.builder().host(b.host).port(b.port).codec(Codecs.byName(b.codec))
                .tls(b.tls);
        b.serverOptions.accept(options);
        ServerOptions serverOptions = options.build();
        Agent agent = new Agent(b, provider.name(), serverOptions.codec().name(), serverOptions.limits());
        try {
            agent.protocols.openAll(b.platform != null ? b.platform : defaultPlatform(b.dummySensors));
            agent.serverTls = serverOptions.tls();
            agent.tls = serverOptions.tls() != null; // before the extensions, which may say so (the announcement)
            agent.host = b.host;
            agent.server = provider.createServer(serverOptions);
            agent.server.start(agent.door(agent.transportName));
            for (AgentExtension extension : b.extensions) {
                agent.extensions.add(extension.start(agent));
            }
        } catch (IOException | RuntimeException | Error e) {
            agent.close();
            throw e;
        } catch (Exception e) {
            agent.close();
            throw new IOException(e.getMessage(), e);
        }
        LOG.info("agent {} listening on {} ({}, codec {}, {}): {}, {}", agent.agentId,
                agent.listenAddress(), agent.transportName, agent.codecName, agent.tls ? "TLS" : "no TLS",
                Counts.of(agent.protocols().size(), "protocol"), Counts.of(agent.sensors().size(), "sensor"));
        return agent;
    }

    /** Where it listens, with the real port when port 0 was asked. */
    public InetSocketAddress address() {
        return server.localAddress();
    }

    /**
     * Where it listens as {@code host:port}, the same way on every transport: the host it was given
     * ({@code 0.0.0.0} stays so, an IPv6 address in brackets) and the real port.
     */
    public String listenAddress() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port();
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

    /** Whether its clients connect over TLS. */
    public boolean tls() {
        return tls;
    }

    /** The TLS config its transport serves with, for extensions that serve on their own ports; null without TLS. */
    public TlsConfig serverTls() {
        return serverTls;
    }

    /**
     * Whether a client presenting {@code token} would be let in (any role), for extensions that serve
     * on their own ports: always true when the agent requires no tokens.
     */
    public boolean admits(String token) {
        return handler.admits(token);
    }

    /** Whether it requires a token of its clients (it was given tokens). */
    public boolean requiresTokens() {
        return !inProcessCredentials.isEmpty();
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

    /**
     * Adds protocols while running, all or none, as an admin's AddProtocol request does: for the
     * program that owns the agent (a reload of its configuration), not for clients.
     *
     * @return the protocols added
     * @throws CallException saying why none was added (a name taken, no plugin of a type, ...)
     */
    public List<ProtocolInfo> addProtocols(PlatformConfig config) throws CallException {
        return protocols.add(config);
    }

    /**
     * Removes a protocol while running, its sensors and their streams with it, as an admin's
     * RemoveProtocol request does.
     *
     * @throws CallException when there is no protocol by that name
     */
    public void removeProtocol(String name) throws CallException {
        protocols.remove(name);
    }

    /** How many client sessions are open. */
    public int sessionCount() {
        return handler.sessionCount();
    }

    /** How many streams are set up or running, over all sessions. */
    public int streamCount() {
        return streams.size();
    }

    /** Requests waiting for a worker now. */
    public int queuedRequests() {
        return workers.getQueue().size();
    }

    /**
     * What became of the readings of all its streams since it started, ended streams included:
     * delivered, skipped and dropped for slow clients (see {@link StreamCounts}). Each figure only grows.
     */
    public StreamCounts streamTotals() {
        return streams.totals();
    }

    /**
     * Stream frames encoded since it started: one per reading sent on a client's own stream, one per
     * reading and codec on a shared stream, however many subscribers it reached. Frames that no
     * codec encodes (the HTTP transport's JSON, in-process sessions) are not counted.
     */
    public long streamFramesEncoded() {
        return streams.framesEncoded();
    }

    /** Shared streams open now (see {@link org.salgate.model.Call.SetupStream}'s {@code shared}). */
    public int sharedStreamCount() {
        return streams.sharedStreams();
    }

    /** Reads that gave an ERROR reading since it started, by sensor id (sensors that never failed are absent). */
    public Map<String, Long> readErrors() {
        return sensors.readErrors();
    }

    /** The plugin types it knows, each with where it was loaded from. */
    public Map<String, String> pluginTypes() {
        return plugins.types();
    }

    /**
     * The credentials an in-process session ({@link #openSession}) gives in its hello: when the agent
     * requires tokens, a token made at start with the reader role, known only inside this process;
     * else the empty string.
     */
    public String inProcessCredentials() {
        return inProcessCredentials;
    }

    /**
     * Opens a session in-process, as a client connected over a transport would have one: for
     * bridges that publish the agent's data elsewhere (see {@link BridgeSession}). The caller sends
     * the hello (with {@link #codecName()} and {@link #inProcessCredentials()}) and closes the session with
     * {@link BridgeSession#closeByCaller()}.
     *
     * @param name the session's name in the agent's logs, such as {@code mqtt}
     * @param writable whether the caller can take more pushed messages now
     * @param sink receives the pushed messages
     */
    public BridgeSession openSession(String name, BooleanSupplier writable, BridgeSession.Sink sink) {
        return BridgeSession.open(door(name), inProcessSessionIds.decrementAndGet(), "in-process:" + name, writable,
                sink);
    }

    /**
     * Closes its extensions, ends every stream (clients get StreamEnded), closes the sessions and
     * the protocols. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (int i = extensions.size() - 1; i >= 0; i--) {
            try {
                extensions.get(i).close();
            } catch (Exception | LinkageError e) {
                LOG.warn("an extension of the agent failed to close", e);
            }
        }
        streams.endAll("the agent is stopping");
        if (server != null) {
            try {
                server.close();
            } catch (RuntimeException e) {
                LOG.warn("the transport failed to close", e);
            }
        }
        limits.close();
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
