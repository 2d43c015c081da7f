package org.salgate.plugin.opcua;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.sensorml.ChannelConfig;

/** The OPC UA plugin passes the suite against node-opcua-server (read channels, one writable). */
@Tag("devices")
class OpcuaPluginConformanceDeviceTest extends OpcuaConformance {

    private static final List<ChannelConfig> CHANNELS = plc("ns=1;s=SetPoint", "Cel", "ns=1;s=Counter");

    @TempDir
    static Path dir;
    private static NodeOpcuaServer server;

    @Override
    TestServer server() throws Exception {
        if (server == null) {
            server = new NodeOpcuaServer(dir.resolve("pki"));
            server.start();
            // a cold JVM's first OPC UA connection (class loading, BouncyCastle) can take longer than the
            // suite's request timeout: the suite checks the agent, not the JVM's start
            org.eclipse.milo.opcua.sdk.client.DiscoveryClient.getEndpoints(server.url()).get(60,
                    java.util.concurrent.TimeUnit.SECONDS);
        }
        return server;
    }

    @Override
    List<ChannelConfig> channels() {
        return CHANNELS;
    }

    @Test
    void aVariableFoundByBrowsingIsServedAsASensorWithItsEngineeringUnit() throws Exception {
        aBrowsedVariableIsServedWithItsUnit("ns=1;s=Device",
                List.of("found.Counter", "found.Pressure", "found.SetPoint", "found.Temperature"),
                "found.Pressure", "bar", "range 0 to 10");
    }
}
