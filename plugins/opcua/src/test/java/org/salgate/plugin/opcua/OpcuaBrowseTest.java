package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The driver against Eclipse Milo's own server SDK in this JVM ({@link MiloTestServer}): the
 * subtree browsed into channels with their units, ranges, types and access; units of configured
 * channels from their nodes; reads, writes, pushes and status codes of discovered channels; a
 * server restart.
 */
class OpcuaBrowseTest {

    private MiloTestServer server;
    private SensorProtocol protocol;
    private final Map<String, List<ChannelValue>> pushed = new ConcurrentHashMap<>();

    @BeforeEach
    void theServer() throws Exception {
        server = MiloTestServer.shared();
    }

    @AfterEach
    void closeTheProtocol() {
        if (protocol != null) {
            protocol.close();
        }
    }

    private SensorProtocol open(Map<String, String> parameters, ChannelConfig... channels) throws Exception {
        PushSink sink = (channel, value) -> pushed.computeIfAbsent(channel, c -> new CopyOnWriteArrayList<>())
                .add(value);
        protocol = TestProtocols.open(new ProtocolConfig("plant", "opcua", server.url(), parameters, List.of(),
                List.of(), List.of(channels)), sink);
        return protocol;
    }

    private static Map<String, ChannelConfig> byName(List<ChannelConfig> channels) {
        return channels.stream().collect(Collectors.toMap(ChannelConfig::name, Function.identity()));
    }

    @Test
    void browsingTheSubtreeFindsEachVariableWithItsUnitRangeDataTypeDescriptionAndAccess() throws Exception {
        SensorProtocol p = open(Map.of("browse", "ns=2;s=Plant"));
        p.connect();
        Map<String, ChannelConfig> found = byName(p.discover());
        String speed = OpcuaBrowser.name(List.of("Line 2", "Speed"), NodeId.parse("ns=2;s=Plant/Line 2/Speed"));
        assertEquals(java.util.Set.of("Boiler-Temperature", "Boiler-SetPoint", "Counter", speed), found.keySet());
        assertTrue(speed.matches("Line_2-Speed-[0-9a-f]{8}"), speed);

        ChannelConfig t = found.get("Boiler-Temperature");
        assertEquals("Cel", t.unit(), "UNECE CEL as UCUM");
        assertEquals("boiler temperature (Double, range 0 to 150)", t.description());
        assertEquals(ChannelConfig.Access.READ, t.access());
        assertEquals("ns=2;s=Plant/Boiler/Temperature", t.attributes().get("node"));
        ChannelConfig sp = found.get("Boiler-SetPoint");
        assertEquals("bar", sp.unit());
        assertEquals(ChannelConfig.Access.READ_WRITE, sp.access());
        assertEquals("Boiler/SetPoint (Int16)", sp.description(), "no Description: the browse path");
        assertEquals("", found.get("Counter").unit(), "no EngineeringUnits, no unit");
        assertEquals("rpm", found.get(speed).unit(), "a unit with no UNECE code: its display name");

        assertEquals(found, byName(p.discover()), "the same channels at a second discovery");
        p.disconnect();
        p.connect();
        assertEquals(found, byName(p.discover()), "the same channels after a reconnect");
    }

    @Test
    void browseDepthAndBrowseLimitBoundWhatIsBrowsed() throws Exception {
        SensorProtocol shallow = open(Map.of("browse", "ns=2;s=Plant", "browse-depth", "1"));
        shallow.connect();
        assertEquals(List.of("Counter"), shallow.discover().stream().map(ChannelConfig::name).toList());
        shallow.close();

        // the first level holds Boiler, Counter and Line 2: a limit of 2 nodes stops there
        SensorProtocol few = open(Map.of("browse", "ns=2;s=Plant", "browse-limit", "2"));
        few.connect();
        List<ChannelConfig> got = few.discover();
        assertTrue(got.size() <= 1 && got.stream().allMatch(c -> c.name().equals("Counter")),
                "two nodes of the first level looked at, the only variable among them Counter: " + got);
    }

    @Test
    void aBrowseNodeTheServerDoesNotHaveFailsTheDiscoveryNamingTheNodeAndTheStatus() throws Exception {
        SensorProtocol p = open(Map.of("browse", "ns=2;s=Nowhere"));
        p.connect();
        PluginException e = assertThrows(PluginException.class, p::discover);
        assertTrue(e.getMessage().contains("node ns=2;s=Nowhere (parameter browse): Bad_NodeIdUnknown"),
                e.getMessage());
    }

    @Test
    void discoveredChannelsAreReadWrittenAndMonitoredLikeConfiguredOnes() throws Exception {
        SensorProtocol p = open(Map.of("browse", "ns=2;s=Plant", "sampling-ms", "20", "publishing-interval-ms", "50"));
        p.connect();
        Map<String, ChannelConfig> found = byName(p.discover());
        ChannelConfig temperature = found.get("Boiler-Temperature");
        assertTrue(p.pushes(temperature), "with sampling-ms, a discovered channel is a monitored item");
        await("temperature notifications", () -> pushed.getOrDefault("Boiler-Temperature", List.of()).size() >= 3);
        assertTrue(pushed.get("Boiler-Temperature").stream().allMatch(ChannelValue::ok));

        ChannelConfig setPoint = found.get("Boiler-SetPoint");
        p.write(setPoint, Value.of(7.0));
        assertEquals((short) 7, server.setPoint());
        await("the set point pushed", () -> pushed.getOrDefault("Boiler-SetPoint", List.of()).stream()
                .anyMatch(v -> Value.of(7L).equals(v.value())));
    }

    @Test
    void aConfiguredChannelWithoutAUnitTakesItsNodesEngineeringUnitsAtConnect() throws Exception {
        ChannelConfig temperature = ChannelConfig.read("t", "", Map.of("node", "ns=2;s=Plant/Boiler/Temperature"));
        ChannelConfig counter = ChannelConfig.read("c", "", Map.of("node", "ns=2;s=Plant/Counter"));
        ChannelConfig kelvin = ChannelConfig.read("k", "K", Map.of("node", "ns=2;s=Plant/Boiler/Temperature"));
        SensorProtocol p = open(Map.of(), temperature, counter, kelvin);
        p.connect();
        List<ChannelConfig> found = p.discover();
        assertEquals(1, found.size(), "only the unitless channel whose node has a unit: " + found);
        assertEquals("t", found.get(0).name());
        assertEquals("Cel", found.get(0).unit());
        assertEquals(temperature.attributes(), found.get(0).attributes());
    }

    @Test
    void readsGiveValuesAndSourceTimesAndAMissingNodeFailsAloneByItsStatusName() throws Exception {
        ChannelConfig counter = ChannelConfig.read("c", "", Map.of("node", "ns=2;s=Plant/Counter"));
        ChannelConfig missing = ChannelConfig.read("m", "", Map.of("node", "ns=2;s=Plant/Nothing"));
        SensorProtocol p = open(Map.of(), counter, missing);
        p.connect();
        List<ChannelValue> values = p.read(List.of(new ChannelRead(counter), new ChannelRead(missing)));
        assertTrue(values.get(0).ok() && values.get(0).value() instanceof Value.Int, values.toString());
        assertTrue(values.get(0).deviceTimeMicros() > 0, "no source time");
        assertFalse(values.get(1).ok());
        assertTrue(values.get(1).error().contains("Bad_NodeIdUnknown"), values.get(1).error());
    }

    @Test
    void aBadBrowseParameterIsRefusedWhenTheProtocolIsAddedNamingIt() {
        PluginException e = assertThrows(PluginException.class, () -> open(Map.of("browse", "Plant")));
        assertTrue(e.getMessage().contains("parameter browse 'Plant' is not a node id"), e.getMessage());
        e = assertThrows(PluginException.class, () -> open(Map.of("browse", "i=85", "browse-depth", "99")));
        assertTrue(e.getMessage().contains("browse-depth '99'"), e.getMessage());
        e = assertThrows(PluginException.class, () -> open(Map.of("browse-limit", "10")));
        assertTrue(e.getMessage().contains("browse-limit applies to browsing"), e.getMessage());
    }

    @Test
    void aServerRestartDisconnectsTheProtocolAndAReconnectServesTheDiscoveredChannelsAgain() throws Exception {
        SensorProtocol p = open(Map.of("browse", "ns=2;s=Plant", "sampling-ms", "20", "timeout-ms", "1000"));
        p.connect();
        ChannelConfig temperature = byName(p.discover()).get("Boiler-Temperature");
        await("pushed", () -> pushed.getOrDefault("Boiler-Temperature", List.of()).size() >= 2);
        server.stop();
        try {
            await("the session found lost", () -> !p.pushes(temperature));
            assertThrows(SensorDisconnectedException.class, () -> p.read(List.of(new ChannelRead(temperature))));
            assertThrows(SensorDisconnectedException.class, p::discover);
            p.disconnect();
            assertThrows(Exception.class, p::connect, "connected to a stopped server");
        } finally {
            server.start();
        }
        pushed.clear();
        p.connect();
        assertTrue(p.pushes(temperature), "the discovered channel monitored again");
        await("pushed again", () -> pushed.getOrDefault("Boiler-Temperature", List.of()).size() >= 2);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 20 s for " + what);
            Thread.sleep(20);
        }
    }
}
