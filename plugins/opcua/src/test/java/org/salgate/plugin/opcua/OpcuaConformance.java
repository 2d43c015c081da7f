package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.KitAgent;
import org.salgate.plugin.tck.KitSession;
import org.salgate.plugin.tck.SilentServer;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * What the OPC UA plugin's two conformance runs share, whatever server they run against: a
 * protocol {@code plc} of two channels (a writable set point at scale 0.5, a counter), a silent
 * server, the bad configurations, and a subtree browsed through a whole agent.
 */
abstract class OpcuaConformance extends AbstractDevicePluginConformanceTest {

    private SilentServer silent;
    private boolean running = true;

    /** Channels setpoint (read-write, scale 0.5, -100 to 100, in {@code unit}) and counter. */
    static List<ChannelConfig> plc(String setPointNode, String unit, String counterNode) {
        return List.of(new ChannelConfig("setpoint", "", unit, 0.5, 0, ChannelConfig.Access.READ_WRITE, -100.0, 100.0,
                        Map.of("node", setPointNode)),
                ChannelConfig.read("counter", "", Map.of("node", counterNode)));
    }

    /** The server, started. */
    abstract TestServer server() throws Exception;

    /** The writable Int16 set point (5 at the start) and the counter, as the server names them. */
    abstract List<ChannelConfig> channels();

    String url() {
        try {
            return server().url();
        } catch (Exception e) {
            throw new IllegalStateException("the OPC UA server did not start", e);
        }
    }

    @BeforeEach
    void theServerRuns() throws Exception {
        server();
    }

    @AfterEach
    void stopTheSilentOne() throws Exception {
        if (silent != null) {
            silent.close();
        }
        startDevice();
    }

    @Override
    protected void startDevice() throws Exception {
        if (!running) {
            server().start();
            running = true;
        }
    }

    @Override
    protected void stopDevice() throws Exception {
        server().stop();
        running = false;
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("plc", "opcua", url(), Map.of("timeout-ms", "3000"), List.of(), List.of(),
                channels());
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SilentServer();
        return new ProtocolConfig("mute", "opcua", "opc.tcp://127.0.0.1:" + silent.port() + "/",
                Map.of("timeout-ms", "5000"), List.of(), List.of(), channels());
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of("127.0.0.1:*"));
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return sensorId.equals("plc.setpoint") ? Value.of(2.5) : null;
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                bad("node", Map.of(), List.of(ChannelConfig.read("x", "", Map.of("node", "ns=1;q=what")))),
                bad("security-policy", Map.of("security-policy", "Basic128"), channels()),
                bad("server-certificate", Map.of("security-policy", "Basic256Sha256"), channels()),
                bad("sampling-ms", Map.of(), List.of(ChannelConfig.read("x", "", Map.of("node", "ns=1;i=1",
                        "sampling-ms", "soon")))),
                bad("browse", Map.of("browse", "Plant"), List.of()));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named, "opcua", url(), parameters, List.of(),
                List.of(), channels), named);
    }

    /**
     * An agent with a protocol {@code found} browsing {@code node} serves {@code sensor} (among
     * {@code all}) with its unit and {@code range} in its description, and reads it OK in that unit.
     */
    void aBrowsedVariableIsServedWithItsUnit(String node, List<String> all, String sensor, String unit,
                                             String range) throws Exception {
        ProtocolConfig browsing = new ProtocolConfig("found", "opcua", url(),
                Map.of("timeout-ms", "3000", "browse", node), List.of(), List.of(), List.of());
        KitAgent agent = start(browsing);
        KitSession s = agent.session();
        await("sensor " + sensor, () -> sensorsOf(agent, "found").contains(sensor));
        assertEquals(all, sensorsOf(agent, "found"));
        String sensorMl = s.ok(new Call.DescribeSensor(sensor), Result.Document.class).xml();
        assertTrue(sensorMl.contains("code=\"" + unit + "\"") && sensorMl.contains(range), sensorMl);
        Reading r = s.read(sensor, "read", Map.of());
        assertEquals(Reading.Status.OK, r.status(), r.toString());
        assertEquals(unit, r.unit());
        assertInstanceOf(Value.Num.class, r.value());
    }

    /**
     * The fixtures' threads, and Milo's shared pools: its event loop group and executors are
     * made once per process, of a fixed size, daemons, and serve every OPC UA connection of the
     * agent (and, in the JVM's own server, its connections); the group starts its threads one at
     * a time as connections come (a later round may start one more), and none is made per
     * protocol. Threads of any other name still fail.
     */
    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().equals("node-opcua-server output")
                || (thread.isDaemon() && thread.getName().startsWith("milo-"));
    }
}
