package org.salgate.plugin.snmp;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.KitAgent;
import org.salgate.plugin.tck.KitSession;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;

/** The SNMP plugin passes the suite against an in-JVM SNMP v2c agent (snmp4j's command responder). */
class SnmpPluginConformanceTest extends AbstractDevicePluginConformanceTest {

    private static final List<ChannelConfig> CHANNELS = List.of(
            Channels.read("uptime", "oid", "1.3.6.1.2.1.1.3.0"),
            Channels.read("name", "oid", "1.3.6.1.2.1.1.5.0"),
            Channels.read("in-octets", "oid", "1.3.6.1.2.1.2.2.1.10", "index", "1"),
            Channels.read("temperature", "oid", "1.3.6.1.4.1.2021.13.16.2.1.3.1"));
    private static final Map<String, Value> EXPECTED = Map.of("router.uptime", Value.of(4200L),
            "router.name", Value.of("router-1"), "router.in-octets", Value.of(123456L),
            "router.temperature", Value.of(21500L));

    @TempDir
    Path dir;
    private Path community;
    private FakeSnmpAgent device;
    private DatagramSocket silent;

    @BeforeEach
    void startTheDevice() throws Exception {
        community = Files.writeString(dir.resolve("community"), "s3cret\n");
        device = new FakeSnmpAgent(FakeSnmpAgent.freeUdpPort(), "s3cret");
        device.values.put(SnmpProtocol.SYS_UP_TIME, new TimeTicks(4200));
        device.values.put(new OID("1.3.6.1.2.1.1.5.0"), new OctetString("router-1"));
        device.values.put(new OID("1.3.6.1.2.1.2.2.1.10.1"), new Counter32(123456));
        device.values.put(new OID("1.3.6.1.4.1.2021.13.16.2.1.3.1"), new Integer32(21500));
        startDevice();
    }

    @AfterEach
    void stopTheDevices() throws Exception {
        stopDevice();
        if (silent != null) {
            silent.close();
        }
    }

    @Override
    protected void startDevice() throws Exception {
        device.start();
    }

    @Override
    protected void stopDevice() throws Exception {
        device.stop();
    }

    @Override
    protected ProtocolConfig protocol() {
        return config("router", device.port(), Map.of("community-file", community.toString(), "timeout-ms", "700",
                "retries", "1"), CHANNELS);
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        return config("mute", silent.getLocalPort(), Map.of("community-file", community.toString(),
                "timeout-ms", "5000"), CHANNELS);
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of("127.0.0.1:*"));
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return EXPECTED.get(sensorId);
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        Map<String, String> ok = Map.of("community-file", community.toString());
        return List.of(
                bad("version", Map.of("version", "1", "community-file", community.toString()), CHANNELS),
                bad("community-file", Map.of("community-file", dir.resolve("missing").toString()), CHANNELS),
                bad("oid", ok, List.of(Channels.read("x", "oid", "sysUpTime.0"))),
                bad("trap-port", ok, List.of(Channels.read("x", "trap-oid", "1.3.6.1.6.3.1.1.4.1.0"))),
                bad("walk-columns", Map.of("community-file", community.toString(), "walk", "ifTable",
                        "walk-columns", "ifInOctet"), CHANNELS));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return new BadConfiguration(config("bad-" + named, device.port(), parameters, channels), named);
    }

    private static ProtocolConfig config(String name, int port, Map<String, String> parameters,
                                         List<ChannelConfig> channels) {
        return new ProtocolConfig(name, "snmp", "udp:127.0.0.1:" + port, parameters, List.of(), List.of(), channels);
    }

    @Test
    void theInterfacesAWalkFindsAreServedAsSensorsAndOneNoLongerWalkedGoesDisconnected() throws Exception {
        for (int row = 1; row <= 2; row++) {
            device.values.put(new OID("1.3.6.1.2.1.2.2.1.2." + row), new OctetString(row == 1 ? "lo" : "eth0"));
            device.values.put(new OID("1.3.6.1.2.1.2.2.1.16." + row), new Counter32(1000L * row));
        }
        ProtocolConfig walking = config("router", device.port(), Map.of("community-file", community.toString(),
                "walk", "ifTable", "walk-columns", "ifOutOctets", "walk-name", "ifDescr",
                "discover-interval-ms", "100"), List.of());
        KitAgent agent = start(walking);
        KitSession session = agent.session();
        session.ok(new Call.SubscribeEvents(), Result.Ack.class);
        await("the walked interfaces as sensors", () -> sensorsOf(agent, "router").equals(
                List.of("router.eth0-ifOutOctets", "router.lo-ifOutOctets")));
        Reading out = session.read("router.eth0-ifOutOctets", "read", Map.of());
        assertEquals(Reading.Status.OK, out.status(), out.error());
        assertEquals(Value.of(2000L), out.value());
        assertEquals("By", out.unit());
        String sensorMl = session.ok(new Call.DescribeSensor("router.eth0-ifOutOctets"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("Counter32"), sensorMl);

        device.values.remove(new OID("1.3.6.1.2.1.2.2.1.2.2"));
        device.values.remove(new OID("1.3.6.1.2.1.2.2.1.16.2"));
        session.events(e -> e.subject().equals("router.eth0-ifOutOctets")
                && e.state() == SensorState.DISCONNECTED, 1, "eth0 gone from the table");
        assertEquals(Reading.Status.DISCONNECTED, session.read("router.eth0-ifOutOctets", "read", Map.of()).status());
        assertEquals(Value.of(1000L), session.read("router.lo-ifOutOctets", "read", Map.of()).value());
    }

    /** The simulated device's threads (snmp4j's listener of its port) are the fixture's. */
    @Override
    protected boolean fixtureThread(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("org.snmp4j"))
                && thread.getName().contains(Integer.toString(device.port()));
    }
}
