package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;

/**
 * A bridge started with a store already holding a backlog, the broker up: the backlog is
 * delivered, all of it, in order, at no more than the drain rate, on one connection (no reconnect
 * loop, as Paho's v3 client had with a persisted backlog).
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttBacklogDrainTest extends BridgeFixture {

    private static final int BACKLOG = 3000;
    private static final int RATE = 800;

    @Test
    void aPersistedBacklogIsDeliveredInOrderAtTheDrainRateOnOneConnection() throws Exception {
        int unused;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            unused = s.getLocalPort();
        }
        AtomicReference<MqttBridge> first = new AtomicReference<>();
        Agent before = agent("it-backlog", MqttBridgeConfig.builder("tcp://127.0.0.1:" + unused)
                .storeFile(dir.resolve("store.mv.db")).stream(StreamSpec.parse("*@5ms")).build(), first);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (first.get() == null || first.get().pending() < BACKLOG) {
            assertTrue(System.nanoTime() < deadline, "the store did not fill while no broker listened");
            Thread.sleep(50);
        }
        before.close();

        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-backlog");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-backlog", topics.all()));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        long start = System.nanoTime();
        agent("it-backlog", config(broker).drainRate(RATE + "/s").build(), bridge);
        long backlog = bridge.get().pending();
        while (bridge.get().pending() > 0) {
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60), "the backlog did not drain: "
                    + bridge.get().pending() + " left");
            assertTrue(sub.on(topics.status()).stream().noneMatch(r -> r.payload().equals("offline")),
                    "the bridge lost its connection while draining");
            Thread.sleep(20);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(1000);

        assertTrue(backlog >= BACKLOG, "the second bridge started with the backlog on disk: " + backlog);
        assertTrue(seconds >= (backlog - 20.0) / RATE, backlog + " messages drained in " + seconds + " s, faster than "
                + RATE + " a second");
        // Readings and events; descriptions and the status are retained state, published apart from the queue.
        List<Subscriber.Received> live = sub.received.stream()
                .filter(r -> r.topic().endsWith("/read") || r.topic().equals(topics.events())).toList();
        assertEquals(bridge.get().published(), live.size(), "every message the broker acknowledged was delivered, once");
        assertEquals(List.of("online"), sub.on(topics.status()).stream().map(Subscriber.Received::payload).toList(),
                "one connection");
        Map<String, Long> next = new HashMap<>();
        for (Subscriber.Received r : live) {
            if (r.topic().endsWith("/read")) {
                long seq = r.json().get("sequence").asLong();
                assertEquals(next.getOrDefault(r.topic(), 0L), seq, r.topic() + ": in order, none missing");
                next.put(r.topic(), seq + 1);
            }
        }
        assertEquals(4, next.size(), "the four sensors' readings: " + next);
        assertEquals(0, bridge.get().dropped());
    }
}
