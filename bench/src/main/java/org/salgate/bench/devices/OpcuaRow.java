package org.salgate.bench.devices;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
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
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;
import org.salgate.agent.Agent;
import org.salgate.bench.run.Stat;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.model.Reading;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The OPC UA row of {@code bench devices}: {@value #ITEMS} variables of one Eclipse Milo server in
 * the bench's JVM (loopback, security None), each changed every {@value #CHANGE_MS} ms with the
 * change's time as its source timestamp, monitored at the stream interval (sampling interval and
 * publishing interval alike):
 * <ul>
 *   <li><b>agent</b>: the agent's OPC UA driver monitors the {@value #ITEMS} variables as channels of
 *       one protocol (one subscription), and clients stream every channel's sensor at the interval;</li>
 *   <li><b>milo</b>: Milo's own client alone, one subscription with the same {@value #ITEMS}
 *       monitored items on the same server, its data-value listener the receiver.</li>
 * </ul>
 * Both in the same run, one after the other (the order alternating between repetitions), for the
 * same window after the same warm-up. Figures: readings (notifications) received per second, those
 * carrying a source timestamp not seen before for their variable (fresh), and the latency from the
 * value's source timestamp (set when the server changed it) to the receiver having it, on one clock.
 */
final class OpcuaRow {

    static final int ITEMS = 1000;
    static final long CHANGE_MS = 50;
    static final String AGENT = "opcua agent";
    static final String MILO = "opcua milo";

    private static final long HISTOGRAM_MAX_MICROS = 60_000_000L;

    /** What the row hands the runner: a cell's figures in one repetition. */
    interface Recorder {
        void record(String cell, int rep, Map<String, Double> metrics);
    }

    private final DevicesConfig config;
    private final PrintStream console;

    OpcuaRow(DevicesConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    /** One repetition: a server, the agent's side and Milo's alone; a failure is the repetition's problem. */
    void run(int rep, Recorder recorder) throws Exception {
        try (BenchServer server = new BenchServer()) {
            boolean agentFirst = rep % 2 == 1;
            for (int side = 0; side < 2; side++) {
                boolean agent = (side == 0) == agentFirst;
                Map<String, Double> m = agent ? throughAgent(server) : miloAlone(server);
                recorder.record(agent ? AGENT : MILO, rep, m);
                console.printf(Locale.ROOT, "  rep %d  %-12s %d items at %d ms: %.0f readings/s (%.0f fresh)  latency p50"
                        + " %.1f ms  p99 %.1f ms%n", rep, agent ? AGENT : MILO, ITEMS, config.intervalMs(),
                        m.get("readings_per_s"), m.get("fresh_per_s"), m.get("latency_p50_ms"), m.get("latency_p99_ms"));
            }
        }
    }

    /** Counts what a receiver gets, the fresh values among it, and their latency, inside the window only. */
    private static final class Tally {
        final Histogram latency = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        final Map<Integer, Long> lastSource = new ConcurrentHashMap<>();
        final AtomicLong readings = new AtomicLong();
        final AtomicLong fresh = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        volatile boolean open;

        void got(int item, long sourceMicros, long nowMicros) {
            if (!open) {
                if (sourceMicros > 0) {
                    lastSource.put(item, sourceMicros);
                }
                return;
            }
            readings.incrementAndGet();
            if (sourceMicros <= 0) {
                return;
            }
            Long before = lastSource.put(item, sourceMicros);
            if (before == null || before != sourceMicros) {
                fresh.incrementAndGet();
                synchronized (latency) {
                    latency.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, nowMicros - sourceMicros)));
                }
            }
        }

        Map<String, Double> figures(long windowNanos) {
            double seconds = windowNanos / 1e9;
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("items", (double) ITEMS);
            m.put("readings_per_s", readings.get() / seconds);
            m.put("fresh_per_s", fresh.get() / seconds);
            m.put("error_readings", (double) errors.get());
            synchronized (latency) {
                m.put("latency_p50_ms", latency.getValueAtPercentile(50) / 1000.0);
                m.put("latency_p99_ms", latency.getValueAtPercentile(99) / 1000.0);
                m.put("latency_max_ms", latency.getMaxValue() / 1000.0);
            }
            return m;
        }
    }

    private Map<String, Double> window(Tally tally) throws InterruptedException {
        Thread.sleep(config.warmup().toMillis());
        tally.open = true;
        long t0 = System.nanoTime();
        Thread.sleep(config.duration().toMillis());
        tally.open = false;
        Map<String, Double> m = tally.figures(System.nanoTime() - t0);
        m.put("expected_per_s", ITEMS * 1000.0 / config.intervalMs());
        return m;
    }

    private static long nowMicros() {
        return System.currentTimeMillis() * 1000;
    }

    // ---- through the agent

    private Map<String, Double> throughAgent(BenchServer server) throws Exception {
        List<ChannelConfig> channels = new ArrayList<>(ITEMS);
        for (int i = 0; i < ITEMS; i++) {
            channels.add(ChannelConfig.read("item" + i, "", Map.of("node", BenchServer.node(i).toParseableString())));
        }
        String interval = Long.toString(config.intervalMs());
        ProtocolConfig protocol = new ProtocolConfig("opc", "opcua", server.url(),
                Map.of("sampling-ms", interval, "publishing-interval-ms", interval), List.of(), List.of(), channels);
        Tally tally = new Tally();
        List<SalClient> clients = new ArrayList<>();
        List<SensorStream> streams = new ArrayList<>();
        try (Agent agent = Agent.builder().port(0).agentId("bench-devices-opcua")
                .platform(new PlatformConfig(List.of(protocol))).deviceTargets(List.of("127.0.0.1:" + server.port))
                .start()) {
            try {
                for (int c = 0; c < config.clients(); c++) {
                    clients.add(SalClient.builder().host("127.0.0.1").port(agent.port()).clientName("bench-opcua")
                            .connect());
                }
                awaitPushed(clients.get(0));
                List<CompletableFuture<SensorStream>> starting = new ArrayList<>();
                for (int i = 0; i < ITEMS; i++) {
                    int item = i;
                    StreamListener listener = r -> {
                        if (r.status() == Reading.Status.OK) {
                            tally.got(item, r.deviceTimeMicros(), nowMicros());
                        } else if (tally.open) {
                            tally.errors.incrementAndGet();
                        }
                    };
                    starting.add(clients.get(i % clients.size()).stream("opc.item" + i, "read", null,
                            config.intervalMs(), listener));
                }
                for (CompletableFuture<SensorStream> f : starting) {
                    streams.add(f.get(30, TimeUnit.SECONDS));
                }
                return window(tally);
            } finally {
                for (SensorStream s : streams) {
                    s.stop().get(10, TimeUnit.SECONDS);
                }
                for (SalClient c : clients) {
                    c.close();
                }
            }
        }
    }

    /** Waits until the last item's sensor reads OK: the subscription is made and has pushed. */
    private static void awaitPushed(SalClient client) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Reading r;
        while ((r = client.execute("opc.item" + (ITEMS - 1), "read", null).get(10, TimeUnit.SECONDS)).status()
                != Reading.Status.OK) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the agent cannot read opc.item" + (ITEMS - 1) + ": " + r.error());
            }
            Thread.sleep(50);
        }
    }

    // ---- Milo's client alone

    private Map<String, Double> miloAlone(BenchServer server) throws Exception {
        Tally tally = new Tally();
        OpcUaClient client = OpcUaClient.create(server.url());
        client.connect();
        try {
            OpcUaSubscription subscription = new OpcUaSubscription(client, (double) config.intervalMs());
            subscription.create();
            List<OpcUaMonitoredItem> items = new ArrayList<>(ITEMS);
            for (int i = 0; i < ITEMS; i++) {
                int item = i;
                OpcUaMonitoredItem m = OpcUaMonitoredItem.newDataItem(BenchServer.node(i));
                m.setSamplingInterval((double) config.intervalMs());
                m.setQueueSize(uint(1));
                m.setDataValueListener((it, value) -> {
                    if (value.getStatusCode() != null && value.getStatusCode().isBad()) {
                        if (tally.open) {
                            tally.errors.incrementAndGet();
                        }
                        return;
                    }
                    DateTime source = value.getSourceTime();
                    tally.got(item, source != null && source.isValid()
                            ? TimeUnit.MILLISECONDS.toMicros(source.getJavaTime()) : 0, nowMicros());
                });
                items.add(m);
            }
            subscription.addMonitoredItems(items);
            subscription.createMonitoredItems();
            return window(tally);
        } finally {
            client.disconnect();
        }
    }

    // ---- the report's section

    /** The row's section of the report: both sides, and the agent's share of Milo's alone. */
    static void report(DevicesResult r, StringBuilder s) {
        if (!r.cells().contains(AGENT) || !r.cells().contains(MILO)) {
            return;
        }
        s.append("\n## OPC UA: ").append(ITEMS).append(" monitored items, through the agent and Milo's client alone\n\n");
        s.append("One Eclipse Milo server in the bench's JVM changes ").append(ITEMS).append(" Double variables every ")
                .append(CHANGE_MS).append(" ms, each change stamped with its source time. **agent**: the OPC UA driver"
                        + " monitors them (sampling and publishing at ").append(r.config().intervalMs())
                .append(" ms) and clients stream every sensor at the same interval; **milo**: Milo's own client,"
                        + " one subscription of the same items on the same server. Same run, one after the other."
                        + " Latency: from the source time to the receiver holding the value (one clock); fresh:"
                        + " readings with a source time not seen before for their variable.\n\n");
        s.append("| side | expected/s | readings/s | fresh/s | latency p50 ms | latency p99 ms | errors |\n");
        s.append("|---|---|---|---|---|---|---|\n");
        for (String cell : List.of(AGENT, MILO)) {
            s.append("| ").append(cell.substring("opcua ".length())).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "expected_per_s"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "readings_per_s"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "fresh_per_s"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "latency_p50_ms"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "latency_p99_ms"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "error_readings"))).append(" |\n");
        }
        Stat agentReadings = r.stat(AGENT, "readings_per_s");
        Stat miloReadings = r.stat(MILO, "readings_per_s");
        Stat agent = r.stat(AGENT, "fresh_per_s");
        Stat milo = r.stat(MILO, "fresh_per_s");
        Stat agentLatency = r.stat(AGENT, "latency_p50_ms");
        Stat miloLatency = r.stat(MILO, "latency_p50_ms");
        s.append(String.format(Locale.ROOT, "%nAgent over Milo alone (medians): readings/s %.2f, fresh values/s %.2f;"
                + " latency p50 %.2f times Milo's. A client's stream of a monitored sensor is given the latest value"
                + " pushed at each of its ticks: that adds up to one interval to the latency, and a value replaced"
                + " between two ticks is not seen.%n", agentReadings.median() / miloReadings.median(),
                agent.median() / milo.median(), agentLatency.median() / miloLatency.median()));
    }

    // ---- the server

    /** Milo's server SDK on 127.0.0.1 with {@value #ITEMS} variables {@code ns=2;s=Items/Item<i>}. */
    static final class BenchServer implements AutoCloseable {
        private final int port;
        private final OpcUaServer server;
        private final Items items;

        BenchServer() throws Exception {
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            EndpointConfig endpoint = EndpointConfig.newBuilder()
                    .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                    .setBindAddress("127.0.0.1").setHostname("127.0.0.1").setBindPort(port).setPath("/bench")
                    .setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                    .addTokenPolicy(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS).build();
            OpcUaServerConfig config = OpcUaServerConfig.builder()
                    .setApplicationUri("urn:salgate:bench:milo-server").setProductUri("urn:salgate:bench")
                    .setApplicationName(LocalizedText.english("salgate bench server (Eclipse Milo)"))
                    .setBuildInfo(new BuildInfo("urn:salgate:bench", "salgate", "bench server",
                            OpcUaServer.SDK_VERSION, "", DateTime.now()))
                    .setEndpoints(Set.of(endpoint)).setIdentityValidator(AnonymousIdentityValidator.INSTANCE).build();
            server = new OpcUaServer(config, profile -> new OpcTcpServerTransport(
                    OpcTcpServerTransportConfig.newBuilder().build()));
            items = new Items(server);
            items.startup();
            server.startup().get(30, TimeUnit.SECONDS);
        }

        static NodeId node(int i) {
            return new NodeId(2, "Items/Item" + i);
        }

        String url() {
            return "opc.tcp://127.0.0.1:" + port + "/bench";
        }

        @Override
        public void close() throws Exception {
            items.shutdown();
            server.shutdown().get(30, TimeUnit.SECONDS);
        }
    }

    /** The namespace of the items, changed by the server's scheduler, sampled by its subscription model. */
    private static final class Items extends ManagedNamespaceWithLifecycle {
        private final SubscriptionModel model;
        private ScheduledFuture<?> changes;

        Items(OpcUaServer server) {
            super(server, "urn:salgate:bench:items");
            model = new SubscriptionModel(server, this);
            getLifecycleManager().addLifecycle(model);
            getLifecycleManager().addStartupTask(this::build);
            getLifecycleManager().addShutdownTask(() -> changes.cancel(false));
        }

        private void build() {
            UaFolderNode folder = new UaFolderNode(getNodeContext(), newNodeId("Items"), newQualifiedName("Items"),
                    LocalizedText.english("Items"));
            getNodeManager().addNode(folder);
            folder.addReference(new Reference(folder.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                    Reference.Direction.INVERSE));
            UaVariableNode[] nodes = new UaVariableNode[ITEMS];
            for (int i = 0; i < ITEMS; i++) {
                nodes[i] = new UaVariableNode.UaVariableNodeBuilder(getNodeContext()).setNodeId(BenchServer.node(i))
                        .setBrowseName(newQualifiedName("Item" + i)).setDisplayName(LocalizedText.english("Item" + i))
                        .setDataType(NodeIds.Double).setTypeDefinition(NodeIds.BaseDataVariableType)
                        .setAccessLevel(AccessLevel.READ_ONLY).setUserAccessLevel(AccessLevel.READ_ONLY).build();
                nodes[i].setValue(new DataValue(new Variant(0.0), StatusCode.GOOD, DateTime.now()));
                getNodeManager().addNode(nodes[i]);
                folder.addOrganizes(nodes[i]);
            }
            AtomicLong tick = new AtomicLong();
            changes = getServer().getScheduledExecutorService().scheduleAtFixedRate(() -> {
                Variant v = new Variant((double) tick.incrementAndGet());
                DateTime now = DateTime.now();
                for (UaVariableNode n : nodes) {
                    n.setValue(new DataValue(v, StatusCode.GOOD, now));
                }
            }, CHANGE_MS, CHANGE_MS, TimeUnit.MILLISECONDS);
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
}
