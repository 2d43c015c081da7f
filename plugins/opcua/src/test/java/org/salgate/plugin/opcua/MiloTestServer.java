package org.salgate.plugin.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.model.variables.BaseAnalogType;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.BuildInfo;
import org.eclipse.milo.opcua.stack.core.types.structured.EUInformation;
import org.eclipse.milo.opcua.stack.core.types.structured.Range;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * Eclipse Milo's own server SDK in the test's JVM, on 127.0.0.1 only (security None, anonymous),
 * with namespace {@value #URI} (index 2):
 * <pre>
 * Objects/Plant (ns=2;s=Plant)
 *   Boiler/Temperature   Double, changes every 20 ms, EngineeringUnits CEL (°C), EURange 0..150,
 *                        Description "boiler temperature"
 *   Boiler/SetPoint      Int16, read-write, EngineeringUnits BAR
 *   Counter              UInt32, +1 every 20 ms, no unit
 *   Line 2/Speed         Double, EngineeringUnits "rpm" by display name only (no UNECE code)
 *   Items/Item0..N-1     Double, change every 20 ms (the bench's monitored items)
 * </pre>
 * {@link #stop()} and {@link #start()} restart it on the same port.
 */
final class MiloTestServer implements TestServer {

    static final String URI = "urn:salgate:test:plant";

    private final int port;
    private final int items;
    private OpcUaServer server;
    private Plant plant;
    private final AtomicLong tick = new AtomicLong();

    private static MiloTestServer shared;

    /**
     * The server the fast tests share, started at the first call (its threads are daemons, and it
     * ends with the test JVM); a test that stops it starts it again before it ends.
     */
    static synchronized MiloTestServer shared() throws Exception {
        if (shared == null) {
            shared = new MiloTestServer(0);
            shared.start();
        }
        return shared;
    }

    /** @param items how many variables {@code Items/Item<i>} to serve */
    MiloTestServer(int items) throws Exception {
        this.items = items;
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
    }

    @Override
    public String url() {
        return "opc.tcp://127.0.0.1:" + port + "/plant";
    }

    int port() {
        return port;
    }

    @Override
    public void start() throws Exception {
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1").setHostname("127.0.0.1").setBindPort(port).setPath("/plant")
                .setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicy(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri("urn:salgate:test:milo-server")
                .setProductUri("urn:salgate:test")
                .setApplicationName(LocalizedText.english("salgate test server (Eclipse Milo)"))
                .setBuildInfo(new BuildInfo("urn:salgate:test", "salgate", "test server", OpcUaServer.SDK_VERSION,
                        "", DateTime.now()))
                .setEndpoints(Set.of(endpoint))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .build();
        server = new OpcUaServer(config, profile -> new OpcTcpServerTransport(
                OpcTcpServerTransportConfig.newBuilder().build()));
        plant = new Plant(server);
        plant.startup();
        server.startup().get(30, TimeUnit.SECONDS);
    }

    @Override
    public void stop() throws Exception {
        if (server != null) {
            plant.shutdown();
            server.shutdown().get(30, TimeUnit.SECONDS);
            server = null;
        }
    }

    @Override
    public void close() throws Exception {
        stop();
    }

    /** The value of {@code Boiler/SetPoint} now. */
    Object setPoint() {
        return plant.setPoint.getValue().getValue().getValue();
    }

    private final class Plant extends ManagedNamespaceWithLifecycle {

        private final SubscriptionModel model;
        private UaVariableNode setPoint;
        private ScheduledFuture<?> changes;

        Plant(OpcUaServer server) {
            super(server, URI);
            model = new SubscriptionModel(server, this);
            getLifecycleManager().addLifecycle(model);
            getLifecycleManager().addStartupTask(this::build);
            getLifecycleManager().addShutdownTask(() -> {
                if (changes != null) {
                    changes.cancel(false);
                }
            });
        }

        private void build() {
            UaFolderNode root = folder("Plant", "Plant");
            root.addReference(new Reference(root.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                    Reference.Direction.INVERSE));
            UaFolderNode boiler = folder("Plant/Boiler", "Boiler");
            root.addOrganizes(boiler);
            UaVariableNode temperature = variable("Plant/Boiler/Temperature", "Temperature", NodeIds.Double,
                    AccessLevel.READ_ONLY, new Variant(20.0));
            temperature.setDescription(LocalizedText.english("boiler temperature"));
            temperature.setProperty(BaseAnalogType.ENGINEERING_UNITS, new EUInformation(OpcuaUnits.UNECE,
                    code("CEL"), LocalizedText.english("°C"), LocalizedText.english("degree Celsius")));
            temperature.setProperty(BaseAnalogType.EU_RANGE, new Range(0.0, 150.0));
            boiler.addOrganizes(temperature);
            setPoint = variable("Plant/Boiler/SetPoint", "SetPoint", NodeIds.Int16, AccessLevel.READ_WRITE,
                    new Variant((short) 5));
            setPoint.setProperty(BaseAnalogType.ENGINEERING_UNITS, new EUInformation(OpcuaUnits.UNECE,
                    code("BAR"), LocalizedText.english("bar"), LocalizedText.english("bar")));
            boiler.addOrganizes(setPoint);
            UaVariableNode counter = variable("Plant/Counter", "Counter", NodeIds.UInt32, AccessLevel.READ_ONLY,
                    new Variant(uint(0)));
            root.addOrganizes(counter);
            UaFolderNode line = folder("Plant/Line 2", "Line 2");
            root.addOrganizes(line);
            UaVariableNode speed = variable("Plant/Line 2/Speed", "Speed", NodeIds.Double, AccessLevel.READ_ONLY,
                    new Variant(1450.0));
            speed.setProperty(BaseAnalogType.ENGINEERING_UNITS, new EUInformation("urn:salgate:test:units", -1,
                    LocalizedText.english("rpm"), LocalizedText.english("revolutions per minute")));
            line.addOrganizes(speed);
            UaFolderNode bench = folder("Items", "Items");
            bench.addReference(new Reference(bench.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                    Reference.Direction.INVERSE));
            UaVariableNode[] item = new UaVariableNode[items];
            for (int i = 0; i < items; i++) {
                item[i] = variable("Items/Item" + i, "Item" + i, NodeIds.Double, AccessLevel.READ_ONLY,
                        new Variant(0.0));
                bench.addOrganizes(item[i]);
            }
            ScheduledExecutorService timer = getServer().getScheduledExecutorService();
            changes = timer.scheduleAtFixedRate(() -> {
                long t = tick.incrementAndGet();
                DateTime now = DateTime.now();
                temperature.setValue(new DataValue(new Variant(20.0 + (t % 100) / 10.0), StatusCode.GOOD, now));
                counter.setValue(new DataValue(new Variant(uint(t)), StatusCode.GOOD, now));
                for (UaVariableNode n : item) {
                    n.setValue(new DataValue(new Variant((double) t), StatusCode.GOOD, now));
                }
            }, 20, 20, TimeUnit.MILLISECONDS);
        }

        private UaFolderNode folder(String id, String name) {
            UaFolderNode f = new UaFolderNode(getNodeContext(), newNodeId(id), newQualifiedName(name),
                    LocalizedText.english(name));
            getNodeManager().addNode(f);
            return f;
        }

        private UaVariableNode variable(String id, String name, NodeId type, Set<AccessLevel> access, Variant value) {
            UaVariableNode v = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(id))
                    .setBrowseName(newQualifiedName(name))
                    .setDisplayName(LocalizedText.english(name))
                    .setDataType(type)
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .setAccessLevel(access)
                    .setUserAccessLevel(access)
                    .build();
            v.setValue(new DataValue(value));
            getNodeManager().addNode(v);
            return v;
        }

        @Override
        public void onDataItemsCreated(List<DataItem> dataItems) {
            model.onDataItemsCreated(dataItems);
        }

        @Override
        public void onDataItemsModified(List<DataItem> dataItems) {
            model.onDataItemsModified(dataItems);
        }

        @Override
        public void onDataItemsDeleted(List<DataItem> dataItems) {
            model.onDataItemsDeleted(dataItems);
        }

        @Override
        public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {
            model.onMonitoringModeChanged(monitoredItems);
        }
    }

    /** A UNECE Common Code as an EUInformation's unitId: its characters, one per byte. */
    static int code(String common) {
        int id = 0;
        for (char c : common.toCharArray()) {
            id = (id << 8) | c;
        }
        return id;
    }
}
