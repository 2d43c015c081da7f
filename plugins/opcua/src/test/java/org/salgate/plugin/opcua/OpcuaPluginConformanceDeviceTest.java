package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
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
import org.salgate.sensorml.ChannelConfig.Access;
import org.salgate.sensorml.ProtocolConfig;

/** The OPC UA plugin passes the suite against node-opcua-server (read channels, one writable). */
@Tag("devices")
class OpcuaPluginConformanceDeviceTest extends AbstractDevicePluginConformanceTest {

    private static final List<ChannelConfig> CHANNELS = List.of(
            new ChannelConfig("setpoint", "", "Cel", 0.5, 0, Access.READ_WRITE, -100.0, 100.0,
                    Map.of("node", "ns=1;s=SetPoint")),
            ChannelConfig.read("counter", "", Map.of("node", "ns=1;s=Counter")));

    @TempDir
    static Path dir;
    private static NodeOpcuaServer server;
    private SilentServer silent;

    @BeforeEach
    void startTheServer() throws Exception {
        if (server == null) {
            server = new NodeOpcuaServer(dir.resolve("pki"));
            server.start();
            // a cold JVM's first OPC UA connection (class loading, BouncyCastle) can take longer than the
            // suite's request timeout: the suite checks the agent, not the JVM's start
            org.eclipse.milo.opcua.sdk.client.DiscoveryClient.getEndpoints(server.url()).get(60,
                    java.util.concurrent.TimeUnit.SECONDS);
        }
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
            server.start();
            running = true;
        }
    }

    private boolean running = true;

    @Override
    protected void stopDevice() throws Exception {
        server.stop();
        running = false;
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("plc", "opcua", server.url(), Map.of("timeout-ms", "3000"), List.of(), List.of(),
                CHANNELS);
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SilentServer();
        return new ProtocolConfig("mute", "opcua", "opc.tcp://127.0.0.1:" + silent.port() + "/",
                Map.of("timeout-ms", "5000"), List.of(), List.of(), CHANNELS);
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
                bad("security-policy", Map.of("security-policy", "Basic128"), CHANNELS),
                bad("server-certificate", Map.of("security-policy", "Basic256Sha256"), CHANNELS),
                bad("sampling-ms", Map.of(), List.of(ChannelConfig.read("x", "", Map.of("node", "ns=1;i=1",
                        "sampling-ms", "soon")))));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named, "opcua", server.url(), parameters, List.of(),
                List.of(), channels), named);
    }

    @org.junit.jupiter.api.Test
    void aVariableFoundByBrowsingIsServedAsASensorWithItsEngineeringUnit() throws Exception {
        ProtocolConfig browsing = new ProtocolConfig("found", "opcua", server.url(),
                Map.of("timeout-ms", "3000", "browse", "ns=1;s=Device"), List.of(), List.of(), List.of());
        KitAgent agent = start(browsing);
        KitSession s = agent.session();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!sensorsOf(agent, "found").contains("found.Pressure")) {
            assertTrue(System.nanoTime() < deadline, "no sensor found.Pressure: " + sensorsOf(agent, "found"));
            Thread.sleep(50);
        }
        assertEquals(List.of("found.Counter", "found.Pressure", "found.SetPoint", "found.Temperature"),
                sensorsOf(agent, "found"));
        String sensorMl = s.ok(new Call.DescribeSensor("found.Pressure"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("code=\"bar\"") && sensorMl.contains("range 0 to 10"), sensorMl);
        Reading pressure = s.read("found.Pressure", "read", Map.of());
        assertEquals(Reading.Status.OK, pressure.status(), pressure.toString());
        assertEquals("bar", pressure.unit());
        assertInstanceOf(Value.Num.class, pressure.value());
        assertEquals("Cel", s.read("found.Temperature", "read", Map.of()).unit());
    }

    /**
     * The fixture's output reader, and Milo's shared pools: its event loop group and executors are
     * made once per process, of a fixed size, daemons, and serve every OPC UA connection of the
     * agent; the group starts its threads one at a time as connections come (a later round may
     * start one more), and none is made per protocol. Threads of any other name still fail.
     */
    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().equals("node-opcua-server output")
                || (thread.isDaemon() && thread.getName().startsWith("milo-"));
    }
}
