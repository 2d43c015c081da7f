package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.testing.FakeRmiAgentPort;

class AgentPluginTest {

    /** How much the heap may grow over a refused connection: the reply is refused before it allocates anything. */
    private static final long HEAP_GROWTH_BOUND = 16L * 1024 * 1024;

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

    /**
     * A relay over RMI pointed at a hostile port: an answer naming a gadget class, or declaring
     * a 2.4 GB array in a hundred bytes, is refused by the deserialization allow-list before
     * anything is built or allocated, and the open fails saying so.
     */
    @Test
    @Timeout(60)
    void aRelayToAHostileRmiPortIsRefusedWithoutHeapGrowth() throws Exception {
        Map<URL, String> gadget = new HashMap<>();
        gadget.put(new URL("http://example.invalid/"), "x");
        for (byte[] reply : List.of(FakeRmiAgentPort.returning(gadget), FakeRmiAgentPort.returningHugeArray(300_000_000))) {
            try (FakeRmiAgentPort port = new FakeRmiAgentPort(reply)) {
                String endpoint = "agent:127.0.0.1:" + port.port();
                ProtocolConfig config = new ProtocolConfig("lab", "agent", endpoint,
                        Map.of(RelayConfig.TRANSPORT, "rmi", RelayConfig.TIMEOUT_MS, "10000"));
                long before = usedHeap();
                PluginException e = assertThrows(PluginException.class,
                        () -> new AgentPlugin().open(config, TestContext.on(endpoint)));
                long growth = usedHeap() - before;
                assertEquals(1, port.answered(), "the port should have answered the relay's bootstrap");
                assertTrue(e.getMessage().contains("outside the deserialization allow-list"), e.getMessage());
                assertTrue(growth < HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024 + " MiB");
            }
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
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
