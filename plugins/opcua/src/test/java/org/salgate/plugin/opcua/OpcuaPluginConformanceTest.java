package org.salgate.plugin.opcua;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.sensorml.ChannelConfig;

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
}
