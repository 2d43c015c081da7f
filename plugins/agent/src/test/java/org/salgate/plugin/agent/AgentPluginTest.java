package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.sensorml.ProtocolConfig;

class AgentPluginTest {

    @Test
    void isRegisteredForTheServiceLoaderAsTypeAgent() {
        List<String> types = ServiceLoader.load(SensorPlugin.class).stream().map(p -> p.get().type()).toList();
        assertTrue(types.contains("agent"), types.toString());
    }

    @Test
    @Timeout(30)
    void unreachableAgentFailsOpenSayingWhereAndWhatToCheck() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String endpoint = "agent:127.0.0.1:" + closedPort;
        ProtocolConfig config = new ProtocolConfig("lab", "agent", endpoint, Map.of("timeoutMs", "2000"));
        PluginException e = assertThrows(PluginException.class,
                () -> new AgentPlugin().open(config, TestContext.on(endpoint)));
        assertTrue(e.getMessage().startsWith("cannot reach the lower agent at 127.0.0.1:" + closedPort + " over netty"),
                e.getMessage());
        assertTrue(e.getMessage().contains("check that an agent listens there"), e.getMessage());
    }

    @Test
    void badConfigurationFailsBeforeConnecting() {
        ProtocolConfig config = new ProtocolConfig("lab", "agent", "agent:127.0.0.1", Map.of());
        PluginException e = assertThrows(PluginException.class,
                () -> new AgentPlugin().open(config, TestContext.on("agent:127.0.0.1")));
        assertEquals("Protocol lab needs the lower agent's host and port in its endpoint, such as "
                + "'agent:10.0.0.5:7431', not 'agent:127.0.0.1'.", e.getMessage());
    }
}
