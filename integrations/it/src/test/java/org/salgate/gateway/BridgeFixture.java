package org.salgate.gateway;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.Agent;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * What the tests of the bridge against a real broker share: a directory for the broker and the
 * store, agents with four dummy sensors and the bridge, and everything they start closed after
 * each test, last started first.
 */
abstract class BridgeFixture {

    static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    <T extends AutoCloseable> T closing(T c) {
        toClose.add(c);
        return c;
    }

    /** An agent with the dummy sensors DUMMY_0..DUMMY_3 and the bridge; the bridge is put in {@code bridge}. */
    Agent agent(String id, MqttBridgeConfig config, AtomicReference<MqttBridge> bridge) throws Exception {
        PlatformConfig dummies = new PlatformConfig(List.of(new ProtocolConfig("dummy", "dummy", "virtual",
                Map.of("sensors", "4"))));
        return closing(Agent.builder().port(0).agentId(id).platform(dummies).extension(a -> {
            MqttBridge b = MqttBridge.start(config, a.agentId(), a.codecName(), a.inProcessCredentials(),
                    sink -> a.openSession("mqtt", () -> true, sink));
            bridge.set(b);
            return b;
        }).start());
    }

    /** The bridge's settings for {@code broker}, with a store in the test's directory and short reconnects. */
    MqttBridgeConfig.Builder config(Mosquitto broker) {
        return MqttBridgeConfig.builder(broker.url()).storeFile(dir.resolve("store.mv.db"))
                .reconnect(Duration.ofMillis(200), Duration.ofSeconds(2));
    }
}
