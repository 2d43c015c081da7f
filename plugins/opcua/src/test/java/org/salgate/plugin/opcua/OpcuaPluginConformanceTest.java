package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.Value;
import org.salgate.plugin.tck.KitAgent;
import org.salgate.plugin.tck.KitSession;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The OPC UA plugin passes the suite against Eclipse Milo's own server SDK in this JVM ({@link MiloTestServer}). */
class OpcuaPluginConformanceTest extends OpcuaConformance {

    private static final List<ChannelConfig> CHANNELS = plc("ns=2;s=Plant/Boiler/SetPoint", "bar",
            "ns=2;s=Plant/Counter");

    @Override
    TestServer server() throws Exception {
        return MiloTestServer.shared();
    }

    @Override
    List<ChannelConfig> channels() {
        return CHANNELS;
    }

    @Test
    void aVariableFoundByBrowsingIsServedAsASensorWithItsEngineeringUnit() throws Exception {
        String speed = "found." + OpcuaBrowser.name(List.of("Line 2", "Speed"),
                org.eclipse.milo.opcua.stack.core.types.builtin.NodeId.parse("ns=2;s=Plant/Line 2/Speed"));
        aBrowsedVariableIsServedWithItsUnit("ns=2;s=Plant",
                List.of("found.Boiler-SetPoint", "found.Boiler-Temperature", "found.Counter", speed),
                "found.Boiler-Temperature", "Cel", "boiler temperature (Double, range 0 to 150)");
    }

    @Test
    void browsedVariablesMonitoredAreServedTheirPushedValuesAndAConfiguredChannelTakesItsNodesUnit()
            throws Exception {
        ChannelConfig unitless = ChannelConfig.read("temperature", "", Map.of("node", "ns=2;s=Plant/Boiler/Temperature"));
        KitAgent agent = start(new ProtocolConfig("found", "opcua", url(), Map.of("timeout-ms", "3000",
                "browse", "ns=2;s=Plant/Boiler", "sampling-ms", "100"), List.of(), List.of(), List.of(unitless)));
        KitSession s = agent.session();
        await("the browsed sensors", () -> sensorsOf(agent, "found").contains("found.Temperature"));
        await("a pushed value of the browsed variable", () -> s.read("found.Temperature", "read", Map.of()).status()
                == Reading.Status.OK);
        Reading browsed = s.read("found.Temperature", "read", Map.of());
        assertEquals("Cel", browsed.unit());
        assertInstanceOf(Value.Num.class, browsed.value());
        assertTrue(browsed.deviceTimeMicros() > 0, "a monitored item's value carries the server's time");

        Reading configured = s.read("found.temperature", "read", Map.of());
        assertEquals(Reading.Status.OK, configured.status(), configured.toString());
        assertEquals("Cel", configured.unit(), "the configured channel given no unit takes its node's");
        String sensorMl = s.ok(new Call.DescribeSensor("found.temperature"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("code=\"Cel\""), sensorMl);
    }
}
