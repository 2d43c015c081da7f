package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;

/** The MQTT bridge against a real Mosquitto broker, watched by a separate MQTT client. */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttBrokerTest extends BridgeFixture {

    private static List<Long> sequences(List<Subscriber.Received> readings) {
        return readings.stream().map(r -> r.json().get("sequence").asLong()).toList();
    }

    @Test
    void everyReadingArrivesOnceInOrderWithItsSequenceNumber() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-order");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-order", topics.all()));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        Agent agent = agent("it-order", config(broker).stream(StreamSpec.parse("DUMMY_0@20ms"))
                .stream(StreamSpec.parse("DUMMY_1:read@50ms")).build(), bridge);

        sub.await(r -> r.topic().equals(topics.reading("DUMMY_0", "read"))
                && r.json().get("sequence").asLong() >= 100, WAIT, "100 readings of DUMMY_0");
        agent.close();
        sub.await(r -> r.topic().equals(topics.status()) && r.payload().equals("offline"), WAIT, "offline status");

        MqttBridge b = bridge.get();
        assertEquals(0, b.pending(), "nothing left waiting");
        assertEquals(0, b.dropped(), "nothing dropped");
        for (String sensor : List.of("DUMMY_0", "DUMMY_1")) {
            List<Subscriber.Received> readings = sub.on(topics.reading(sensor, "read"));
            List<Long> seq = sequences(readings);
            assertFalse(seq.isEmpty(), sensor);
            for (int i = 0; i < seq.size(); i++) {
                assertEquals(i, seq.get(i), sensor + ": readings arrive once each, in order, numbered from 0: " + seq);
            }
            JsonNode first = readings.get(0).json();
            assertEquals(sensor, first.get("sensor").asText());
            assertEquals("read", first.get("command").asText());
            assertEquals("OK", first.get("status").asText());
            assertEquals(42.0, first.get("value").asDouble());
            assertEquals("1", first.get("unit").asText());
            assertTrue(first.get("timestamp").asText().endsWith("Z"), first.toString());
        }
        long delivered = sub.on(topics.reading("DUMMY_0", "read")).size() + sub.on(topics.reading("DUMMY_1", "read")).size()
                + sub.on(topics.events()).size();
        assertEquals(b.queued(), b.published(), "every queued message was published");
        assertEquals(b.published(), delivered, "the subscriber got each published message once");
        assertTrue(sub.on(topics.events()).stream().anyMatch(r -> r.json().get("type").asText().equals("SENSOR_STATE")
                && r.json().get("state").asText().equals("STREAMING")), "stream starts are published as events");
    }

    @Test
    void lateSubscribersGetRetainedDescriptionsAndStatusWhichTurnsOfflineWhenTheAgentStops() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-retained");
        Subscriber early = closing(Subscriber.subscribe(broker.url(), "watcher-early", topics.all()));
        Agent agent = agent("it-retained", config(broker).build(), new AtomicReference<>());
        early.await(r -> r.topic().equals(topics.status()) && r.payload().equals("online"), WAIT, "online status");

        Subscriber late = closing(Subscriber.subscribe(broker.url(), "watcher-late", topics.all()));
        for (int i = 0; i < 4; i++) {
            String sensor = "DUMMY_" + i;
            Subscriber.Received d = late.await(r -> r.topic().equals(topics.description(sensor)), WAIT,
                    "retained description of " + sensor);
            assertTrue(d.retained(), "the description is retained");
            assertTrue(d.payload().contains("<sml:PhysicalComponent") && d.payload().contains(sensor), d.payload());
        }
        Subscriber.Received online = late.await(r -> r.topic().equals(topics.status()), WAIT, "retained status");
        assertTrue(online.retained());
        assertEquals("online", online.payload());

        agent.close();
        late.await(r -> r.topic().equals(topics.status()) && r.payload().equals("offline"), WAIT, "offline status");
        Subscriber after = closing(Subscriber.subscribe(broker.url(), "watcher-after", topics.status()));
        Subscriber.Received offline = after.await(r -> r.topic().equals(topics.status()), WAIT, "retained status");
        assertTrue(offline.retained());
        assertEquals("offline", offline.payload(), "a stopped agent leaves 'offline' retained");
    }

    @Test
    void aKilledAgentIsReportedOfflineByItsLastWill() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-killed");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-killed", topics.status()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process agent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "org.salgate.agent.cli.AgentMain", "--host", "127.0.0.1", "--port", "0", "--agent-id", "it-killed",
                "--dummy-sensors", "2", "--mqtt-url", broker.url(), "--mqtt-store", dir.resolve("killed.mv.db").toString(),
                "--mqtt-stream", "DUMMY_0@100ms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        closing(() -> agent.destroyForcibly().waitFor());

        sub.await(r -> r.payload().equals("online"), Duration.ofSeconds(60), "online status from the agent process");
        agent.destroyForcibly(); // SIGKILL: no DISCONNECT, no goodbye
        assertTrue(agent.waitFor(10, TimeUnit.SECONDS));

        sub.await(r -> r.payload().equals("offline"), WAIT, "the last will");
        Subscriber after = closing(Subscriber.subscribe(broker.url(), "watcher-killed-after", topics.status()));
        Subscriber.Received will = after.await(r -> r.topic().equals(topics.status()), WAIT, "retained status");
        assertTrue(will.retained());
        assertEquals("offline", will.payload(), "the last will is retained");
    }

    /**
     * What systemctl stop does: SIGTERM. The agent process ends within a bound a service's
     * TimeoutStopSec leaves room for, having published the retained offline itself, and the
     * state directory holds its store.
     */
    @Test
    void aSigtermedAgentPublishesOfflineAndStopsWithinTenSeconds() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-sigterm");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-sigterm", topics.status()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path state = dir.resolve("state");
        Process agent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "org.salgate.agent.cli.AgentMain", "--host", "127.0.0.1", "--port", "0", "--agent-id", "it-sigterm",
                "--dummy-sensors", "2", "--mqtt-url", broker.url(), "--state-dir", state.toString(),
                "--mqtt-stream", "DUMMY_0@100ms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent-sigterm.log").toFile()).start();
        closing(() -> agent.destroyForcibly().waitFor());

        sub.await(r -> r.payload().equals("online"), Duration.ofSeconds(60), "online status from the agent process");
        long start = System.nanoTime();
        agent.destroy(); // SIGTERM
        assertTrue(agent.waitFor(10, TimeUnit.SECONDS), "the agent did not stop within 10 s of SIGTERM");
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
        sub.await(r -> r.payload().equals("offline"), WAIT, "offline status");
        String log = Files.readString(dir.resolve("agent-sigterm.log"));
        assertTrue(log.contains("AgentMain - stopped"), log);
        assertTrue(Files.exists(state.resolve("mqtt-salgate-it-sigterm.mv.db")),
                "the store is in the state directory");
    }

    @Test
    void aThirtySecondBrokerOutageDuringATenReadingsPerSecondStreamLosesNoReading() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-outage");
        String readingTopic = topics.reading("DUMMY_0", "read");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-outage", topics.all()));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        // No events: then the bridge's counts are of readings alone.
        Agent agent = agent("it-outage", config(broker).stream(StreamSpec.parse("DUMMY_0@100ms")).events(false).build(),
                bridge);
        sub.await(r -> r.topic().equals(readingTopic) && r.json().get("sequence").asLong() >= 20, WAIT,
                "20 readings before the outage");

        broker.stop();
        Thread.sleep(30_000);
        long waitingAtRestart = bridge.get().pending();
        broker.restart();

        assertTrue(waitingAtRestart >= 250, "about 300 readings waited on disk during the outage, not "
                + waitingAtRestart);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (bridge.get().pending() > 0 || !bridge.get().isConnected()) {
            assertTrue(System.nanoTime() < deadline, "the queue did not drain after the broker came back");
            Thread.sleep(50);
        }
        Thread.sleep(1000);
        agent.close();
        sub.await(r -> r.topic().equals(topics.status()) && r.payload().equals("offline"), WAIT, "offline status");

        assertEquals(0, bridge.get().dropped(), "nothing dropped");
        List<Long> seq = sequences(sub.on(readingTopic));
        Set<Long> seen = new HashSet<>();
        long highest = -1;
        int repeats = 0;
        for (long s : seq) {
            if (s == highest + 1) {
                highest = s;
            } else {
                assertTrue(seen.contains(s), "reading " + s + " came after " + highest + ": a gap or out of order");
                repeats++;
            }
            seen.add(s);
        }
        assertTrue(highest >= 300, "readings went on through the outage, got up to " + highest);
        assertEquals(highest + 1, seen.size(), "no reading lost");
        // The end of the stream too: every reading the broker acknowledged reached the subscriber, and
        // what the bridge took but had not yet published when the agent stopped is at most its window.
        long acknowledged = bridge.get().published();
        assertEquals(acknowledged, seen.size(), "readings the broker acknowledged and the subscriber never got");
        long unpublished = bridge.get().queued() - acknowledged;
        assertTrue(unpublished >= 0 && unpublished <= 16, unpublished + " readings taken but not published at the stop");
        // At-least-once: the few sent but not acknowledged when the broker went away may come twice.
        assertTrue(repeats <= 16, repeats + " repeated readings, more than the bridge's send window");
    }

}
