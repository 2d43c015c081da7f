package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;

class RelayConfigTest {

    private static RelayConfig read(String endpoint, Map<String, String> parameters) throws PluginException {
        return RelayConfig.of(new ProtocolConfig("lab", "agent", endpoint, parameters), TestContext.on(endpoint).endpoint());
    }

    private static String failure(String endpoint, Map<String, String> parameters) {
        return assertThrows(PluginException.class, () -> read(endpoint, parameters)).getMessage();
    }

    @Test
    void defaultsAreNettyProtobufAndTheProtocolNameAsPrefix() throws Exception {
        RelayConfig c = read("agent:10.0.0.5:7431", Map.of());
        assertEquals(new RelayConfig("10.0.0.5", 7431, "netty", "protobuf", "lab.", Duration.ofSeconds(5),
                Duration.ofSeconds(5)), c);
        assertEquals("10.0.0.5:7431", c.address());
    }

    @Test
    void parametersOverrideTheDefaults() throws Exception {
        RelayConfig c = read("agent:[::1]:7500", Map.of("transport", "netty", "codec", "json", "prefix", "",
                "timeoutMs", "250", "retryMs", "1000"));
        assertEquals(new RelayConfig("::1", 7500, "netty", "json", "", Duration.ofMillis(250), Duration.ofSeconds(1)),
                c);
        assertEquals("[::1]:7500", c.address());
    }

    @Test
    void missingOrBadPortIsAClearError() {
        String missing = failure("agent:10.0.0.5", Map.of());
        assertTrue(missing.contains("host and port") && missing.contains("agent:10.0.0.5:7431"), missing);
        String empty = failure("agent:10.0.0.5:", Map.of());
        assertTrue(empty.contains("host and port"), empty);
        String bad = failure("agent:10.0.0.5:seventy", Map.of());
        assertTrue(bad.contains("1 to 65535") && bad.contains("'seventy'"), bad);
        assertTrue(failure("agent:10.0.0.5:70000", Map.of()).contains("1 to 65535"));
    }

    @Test
    void wrongEndpointTypeIsAClearError() {
        String m = failure("virtual", Map.of());
        assertTrue(m.contains("agent:host:port") && m.contains("'virtual'"), m);
    }

    @Test
    void unknownTransportOrCodecNamesTheAvailableOnes() {
        String transport = failure("agent:127.0.0.1:7431", Map.of("transport", "pigeon"));
        assertTrue(transport.contains("transport") && transport.contains("'pigeon'") && transport.contains("netty"),
                transport);
        String codec = failure("agent:127.0.0.1:7431", Map.of("codec", "morse"));
        assertTrue(codec.contains("'morse'") && codec.contains("protobuf"), codec);
    }

    @Test
    void badPrefixOrTimeoutIsAClearError() {
        String prefix = failure("agent:127.0.0.1:7431", Map.of("prefix", "lab/"));
        assertTrue(prefix.contains("prefix") && prefix.contains("'lab/'"), prefix);
        String timeout = failure("agent:127.0.0.1:7431", Map.of("timeoutMs", "0"));
        assertTrue(timeout.contains("timeoutMs") && timeout.contains("'0'"), timeout);
    }
}
