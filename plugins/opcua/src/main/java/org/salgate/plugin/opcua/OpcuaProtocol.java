package org.salgate.plugin.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfigBuilder;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.MonitoredItemServiceOperationResult;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DataChangeTrigger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DeadbandType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.DataChangeFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One OPC UA server. {@link #connect()} finds the server's endpoint with the protocol's security
 * policy and mode (dialling the configured host and port only, whatever host name the server
 * gives in its endpoint list), opens a session and, when channels are monitored, a subscription
 * with one monitored item each, whose notifications go to the agent's push sink. Other channels
 * are read in one Read service call per batch; a write is one Write call of the value in the node's
 * own data type.
 *
 * <p>A lost session (the server stopped, the network gone) is found by Milo's keep-alive: the
 * monitored channels then stop being pushed, so the next read of any channel throws
 * {@link SensorDisconnectedException} and the agent disconnects this protocol and connects it
 * again with its backoff; each connect makes a new session and recreates the subscription. An
 * OPC UA status code that is not good is reported by its name (such as {@code Bad_NodeIdUnknown}).
 */
final class OpcuaProtocol implements DeviceProtocol {

    private static final Logger log = LoggerFactory.getLogger(OpcuaProtocol.class);

    private final String name;
    private final OpcuaSettings settings;
    private final DeviceAddress.Network server;
    private final String url;
    private final PushSink sink;
    /** The channels by name: the configured ones, and those {@link #discover()} found. */
    private final Map<String, OpcuaChannel> channels = new ConcurrentHashMap<>();
    /** The configured channels, as configured. */
    private final Map<String, ChannelConfig> configured = new LinkedHashMap<>();
    /** The units of configured channels without one, from their nodes' EngineeringUnits at connect. */
    private final Map<String, String> units = new ConcurrentHashMap<>();
    private final ServerTrust trust;
    private final ApplicationCertificate certificate;
    /** The client of the current connection; null while disconnected. */
    private volatile OpcUaClient client;
    /** Whether the current connection's session is active, with its subscription. */
    private volatile boolean live;
    /** Why the session was lost, once it was. */
    private volatile String lostWhy = "not connected yet";
    /** The current connection's subscription, once a channel is monitored; null before. */
    private volatile OpcUaSubscription subscription;

    /**
     * @param server the server's host and port, which the agent checked against the allowed devices
     * @param url the endpoint URL as configured
     * @throws IllegalArgumentException naming what is wrong with the configuration
     */
    OpcuaProtocol(ProtocolConfig config, OpcuaSettings settings, DeviceAddress.Network server, String url,
                  PushSink sink) {
        this.name = config.name();
        this.settings = settings;
        this.server = server;
        this.url = url;
        this.sink = sink;
        for (ChannelConfig c : config.channels()) {
            channels.put(c.name(), OpcuaChannel.of(c, settings));
            configured.put(c.name(), c);
        }
        if (settings.secured()) {
            try {
                this.trust = ServerTrust.of(settings);
                this.certificate = ApplicationCertificate.in(settings.certificateDir());
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalArgumentException("OPC UA protocol " + name + ": " + e.getMessage(), e);
            }
        } else {
            this.trust = null;
            this.certificate = null;
        }
    }

    @Override
    public void connect() throws Exception {
        disconnect();
        EndpointDescription endpoint = endpoint();
        OpcUaClient c = OpcUaClient.create(configure(endpoint), transport -> transport
                .setConnectTimeout(uint(settings.timeoutMs())));
        c.addSessionActivityListener(new SessionActivityListener() {
            @Override
            public void onSessionInactive(UaSession session) {
                lost(c, "the session with " + url + " ended (server stopped or connection lost)");
            }
        });
        client = c;
        try {
            c.connect();
            monitor(c, channels.values().stream().filter(OpcuaChannel::monitored).toList());
            learnUnits(c);
        } catch (UaException | RuntimeException e) {
            disconnect();
            throw new SensorDisconnectedException("cannot open a session with OPC UA server " + url + ": "
                    + describe(e), e);
        }
        if (client == c) {
            lostWhy = null;
            live = true;
        }
    }

    /** The server's endpoint with this protocol's security, at the configured host and port. */
    private EndpointDescription endpoint() throws Exception {
        List<EndpointDescription> offered;
        try {
            offered = DiscoveryClient.getEndpoints(url, t -> t.setConnectTimeout(uint(settings.timeoutMs())))
                    .get(settings.timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new SensorDisconnectedException("cannot reach OPC UA server " + url + ": " + describe(e), e);
        }
        String policyUri = settings.secured() ? SecurityPolicy.Basic256Sha256.getUri() : SecurityPolicy.None.getUri();
        MessageSecurityMode mode = switch (settings.mode()) {
            case NONE -> MessageSecurityMode.None;
            case SIGN -> MessageSecurityMode.Sign;
            case SIGN_AND_ENCRYPT -> MessageSecurityMode.SignAndEncrypt;
        };
        for (EndpointDescription e : offered) {
            if (policyUri.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode
                    && e.getEndpointUrl().startsWith("opc.tcp:")) {
                // dial the host and port the operator allowed, not the name the server calls itself
                return EndpointUtil.updateUrl(e, server.host(), server.port());
            }
        }
        throw new PluginException("OPC UA server " + url + " offers no endpoint with security-policy "
                + settings.policy().word + " and security-mode " + settings.mode().word + "; it offers "
                + offered.stream().map(e -> SecurityPolicy.fromUriSafe(e.getSecurityPolicyUri())
                        .map(Enum::name).orElse(e.getSecurityPolicyUri()) + "/" + e.getSecurityMode())
                .distinct().collect(Collectors.joining(", ")));
    }

    private org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig configure(EndpointDescription endpoint)
            throws IOException {
        OpcUaClientConfigBuilder b = new OpcUaClientConfigBuilder()
                .setEndpoint(endpoint)
                .setApplicationName(LocalizedText.english("salgate agent"))
                .setApplicationUri(certificate != null ? certificate.applicationUri() : "urn:salgate:agent")
                .setProductUri("urn:salgate")
                .setSessionName(() -> "salgate " + name)
                .setRequestTimeout(uint(settings.timeoutMs()))
                .setKeepAliveInterval(uint(Math.max(1000, settings.timeoutMs() / 2)))
                .setKeepAliveTimeout(uint(settings.timeoutMs()))
                .setKeepAliveFailuresAllowed(uint(1));
        if (certificate != null) {
            b.setKeyPair(certificate.keyPair())
                    .setCertificate(certificate.certificate())
                    .setCertificateChain(new java.security.cert.X509Certificate[] {certificate.certificate()})
                    .setCertificateValidator(trust);
        }
        if (settings.user() != null) {
            String password = Files.readAllLines(settings.passwordFile(), StandardCharsets.UTF_8).stream()
                    .findFirst().orElse("");
            b.setIdentityProvider(new UsernameProvider(settings.user(), password, trust));
        } else {
            b.setIdentityProvider(new AnonymousProvider());
        }
        return b.build();
    }

    /**
     * Monitors {@code monitored} in the connection's subscription, one monitored item each, in one
     * call; the subscription is created with the first.
     */
    private void monitor(OpcUaClient c, List<OpcuaChannel> monitored) throws UaException {
        if (monitored.isEmpty()) {
            return;
        }
        OpcUaSubscription subscription = this.subscription;
        if (subscription == null || subscription.getClient() != c) {
            subscription = new OpcUaSubscription(c, (double) settings.publishingIntervalMs());
            subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                @Override
                public void onWatchdogTimerElapsed(OpcUaSubscription s) {
                    lost(c, "the subscription on " + url + " received nothing, not even a keep-alive, in its watchdog"
                            + " time");
                }

                @Override
                public void onTransferFailed(OpcUaSubscription s, StatusCode status) {
                    lost(c, "the subscription on " + url + " was lost: " + statusName(status));
                }
            });
            subscription.create();
            this.subscription = subscription;
        }
        List<OpcUaMonitoredItem> items = new ArrayList<>();
        for (OpcuaChannel ch : monitored) {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(ch.node());
            item.setSamplingInterval(ch.samplingMs());
            item.setQueueSize(uint(ch.queueSize()));
            item.setDiscardOldest(true);
            if (ch.deadband() > 0) {
                item.setFilter(new DataChangeFilter(DataChangeTrigger.StatusValue, uint(DeadbandType.Absolute.getValue()),
                        ch.deadband()));
            }
            item.setDataValueListener((it, value) -> push(c, ch, value));
            item.setUserObject(ch);
            items.add(item);
        }
        subscription.addMonitoredItems(items);
        for (MonitoredItemServiceOperationResult r : subscription.createMonitoredItems()) {
            StatusCode status = r.serviceResult();
            if (status != null && status.isBad()) {
                OpcuaChannel ch = (OpcuaChannel) r.monitoredItem().getUserObject().orElseThrow();
                log.warn("OPC UA protocol {}: channel {} ({}) cannot be monitored: {}", name, ch.name(), ch.node(),
                        statusName(status));
                pushNow(ch, ChannelValue.failed("the server refused to monitor node " + ch.node() + ": "
                        + statusName(status)));
            }
        }
    }

    /**
     * The units of the configured channels without one, from their nodes' {@code EngineeringUnits};
     * a server that cannot say leaves them without, as configured.
     */
    private void learnUnits(OpcUaClient c) {
        List<OpcuaChannel> unitless = configured.values().stream().filter(ch -> ch.unit().isEmpty())
                .map(ch -> channels.get(ch.name())).toList();
        if (unitless.isEmpty()) {
            return;
        }
        try {
            Map<NodeId, String> found = new OpcuaBrowser(c, "OPC UA protocol " + name)
                    .units(unitless.stream().map(OpcuaChannel::node).toList());
            for (OpcuaChannel ch : unitless) {
                String unit = found.get(ch.node());
                if (unit != null) {
                    units.put(ch.name(), unit);
                }
            }
        } catch (UaException e) {
            log.warn("OPC UA protocol {}: cannot read the EngineeringUnits of its channels without a unit: {}", name,
                    describe(e));
        }
    }

    /**
     * The variables below the {@code browse} node ({@link OpcuaBrowser}), which this protocol then
     * reads, monitors (with the protocol's {@code sampling-ms}) and writes as it does configured
     * channels; and the configured channels without a unit whose node has {@code EngineeringUnits},
     * with that unit. Without {@code browse}, only the latter.
     */
    @Override
    public List<ChannelConfig> discover() throws Exception {
        OpcUaClient c = session();
        List<ChannelConfig> found = new ArrayList<>();
        for (Map.Entry<String, String> u : units.entrySet()) {
            ChannelConfig k = configured.get(u.getKey());
            found.add(new ChannelConfig(k.name(), k.description(), u.getValue(), k.scale(), k.offset(), k.access(),
                    k.min(), k.max(), k.attributes()));
        }
        if (settings.browse() == null) {
            return found;
        }
        List<ChannelConfig> browsed;
        try {
            browsed = new OpcuaBrowser(c, "OPC UA protocol " + name)
                    .variables(settings.browse(), settings.browseDepth(), settings.browseLimit());
        } catch (UaException e) {
            throw lostOrFailed(e);
        }
        List<OpcuaChannel> added = new ArrayList<>();
        for (ChannelConfig b : browsed) {
            if (configured.containsKey(b.name())) {
                continue;
            }
            OpcuaChannel ch = OpcuaChannel.of(b, settings);
            if (channels.putIfAbsent(b.name(), ch) == null && ch.monitored()) {
                added.add(ch);
            }
            found.add(b);
        }
        try {
            monitor(c, added);
        } catch (UaException e) {
            throw lostOrFailed(e);
        }
        return found;
    }

    private void push(OpcUaClient from, OpcuaChannel channel, DataValue value) {
        if (client == from && live) {
            pushNow(channel, value(channel, value));
        }
    }

    private void pushNow(OpcuaChannel channel, ChannelValue value) {
        try {
            sink.push(channel.name(), value);
        } catch (IllegalArgumentException e) {
            log.debug("OPC UA protocol {}: push of {} refused: {}", name, channel.name(), e.getMessage());
        }
    }

    /** The session of {@code c} is gone: monitored channels are read (and so found disconnected) until the next connect. */
    private void lost(OpcUaClient c, String why) {
        if (client == c && live) {
            lostWhy = why;
            live = false;
            log.info("OPC UA protocol {}: {}", name, why);
        }
    }

    @Override
    public void disconnect() {
        OpcUaClient c = client;
        client = null;
        live = false;
        subscription = null;
        if (c != null) {
            c.disconnectAsync().orTimeout(settings.timeoutMs(), TimeUnit.MILLISECONDS)
                    .whenComplete((done, failure) -> {
                        if (failure != null) {
                            log.debug("OPC UA protocol {}: disconnect: {}", name, failure.toString());
                        }
                    });
        }
    }

    /**
     * An OPC UA server takes many requests of a session at once (each has its handle, and Milo's
     * client matches the answers), so a client's read need not wait behind a stream's batch.
     */
    @Override
    public boolean concurrentRequests() {
        return true;
    }

    @Override
    public boolean pushes(ChannelConfig channel) {
        OpcuaChannel c = channels.get(channel.name());
        return c != null && c.monitored() && live;
    }

    @Override
    public List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        OpcUaClient c = session();
        List<OpcuaChannel> batch = new ArrayList<>(reads.size());
        List<ReadValueId> ids = new ArrayList<>(reads.size());
        for (ChannelRead r : reads) {
            OpcuaChannel ch = channel(r.channel());
            batch.add(ch);
            ids.add(new ReadValueId(ch.node(), AttributeId.Value.uid(), null, null));
        }
        ReadResponse response;
        try {
            response = c.read(0.0, TimestampsToReturn.Both, ids);
        } catch (UaException e) {
            throw lostOrFailed(e);
        }
        DataValue[] results = response.getResults();
        List<ChannelValue> values = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            values.add(results != null && i < results.length ? value(batch.get(i), results[i])
                    : ChannelValue.failed("the server gave no value for node " + batch.get(i).node()));
        }
        return values;
    }

    @Override
    public void write(ChannelConfig config, Value raw) throws Exception {
        OpcuaChannel ch = channel(config);
        OpcUaClient c = session();
        try {
            DataValue current = c.readValue(0.0, TimestampsToReturn.Neither, ch.node());
            if (current.getStatusCode() != null && current.getStatusCode().isBad()) {
                throw new PluginException("cannot write channel " + ch.name() + ": reading node " + ch.node()
                        + " for its data type gave " + statusName(current.getStatusCode()));
            }
            Variant value = OpcuaValues.like(current.getValue(), raw, ch);
            StatusCode status = c.writeValues(List.of(ch.node()), List.of(new DataValue(value))).get(0);
            if (status.isBad()) {
                throw new PluginException("OPC UA server " + url + " refused the write of channel " + ch.name()
                        + " (node " + ch.node() + "): " + statusName(status));
            }
        } catch (UaException e) {
            throw lostOrFailed(e);
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        }
    }

    private ChannelValue value(OpcuaChannel channel, DataValue value) {
        StatusCode status = value.getStatusCode();
        if (status != null && !status.isGood()) {
            return ChannelValue.failed("node " + channel.node() + ": " + statusName(status));
        }
        long deviceMicros = value.getSourceTime() != null && value.getSourceTime().isValid()
                ? TimeUnit.MILLISECONDS.toMicros(value.getSourceTime().getJavaTime()) : 0;
        return new ChannelValue(OpcuaValues.of(value.getValue()), deviceMicros, null);
    }

    /** The live session's client, or why there is none. */
    private OpcUaClient session() throws SensorDisconnectedException {
        OpcUaClient c = client;
        if (c == null || !live) {
            throw new SensorDisconnectedException("OPC UA server " + url + ": " + (lostWhy != null ? lostWhy
                    : "not connected"));
        }
        return c;
    }

    /**
     * A service call failed as a whole: the connection is lost when the status says so (or the
     * session is no longer active), else the call alone failed.
     */
    private Exception lostOrFailed(UaException e) {
        long code = e.getStatusCode().getValue();
        boolean connection = !live || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_ConnectionClosed
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_SessionClosed
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_SessionIdInvalid
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_SecureChannelClosed
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_ServerNotConnected
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NotConnected
                || code == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_Timeout;
        if (connection) {
            return new SensorDisconnectedException("OPC UA server " + url + ": " + describe(e), e);
        }
        return new PluginException("OPC UA server " + url + ": " + describe(e), e);
    }

    /** A status code's name as the specification writes it, such as {@code Bad_NodeIdUnknown}. */
    static String statusName(StatusCode status) {
        return org.eclipse.milo.opcua.stack.core.StatusCodes.lookup(status.getValue()).map(n -> n[0])
                .orElse(String.format("0x%08X", status.getValue()));
    }

    /** A failure's status code by name and its message. */
    private static String describe(Throwable e) {
        Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof TimeoutException) {
            return "no answer in time";
        }
        return UaException.extract(t).map(u -> {
            String n = statusName(u.getStatusCode());
            String m = u.getMessage();
            return m == null || m.isBlank() || m.equals(n) ? n : n + " (" + m + ")";
        }).orElse(t.getMessage() == null ? t.toString() : t.getMessage());
    }

    private OpcuaChannel channel(ChannelConfig config) throws PluginException {
        OpcuaChannel c = channels.get(config.name());
        if (c == null) {
            throw new PluginException("this OPC UA protocol has no channel " + config.name());
        }
        return c;
    }

}
