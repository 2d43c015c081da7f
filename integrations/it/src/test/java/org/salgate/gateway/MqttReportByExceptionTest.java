package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;

/**
 * Streams with reporting options, against a real Mosquitto broker: the dummy sensors' {@code ramp}
 * (0, 1, 2, ... one step a reading) through a deadband publishes exactly the steps beyond it, a
 * constant through a heartbeat publishes once a heartbeat, and a window publishes one aggregate
 * of its readings per window.
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttReportByExceptionTest extends BridgeFixture {

    private static List<JsonNode> on(Subscriber sub, String topic) {
        return sub.on(topic).stream().map(Subscriber.Received::json).toList();
    }

    @Test
    void aRampThroughADeadbandPublishesExactlyTheStepsBeyondIt() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-rbe");
        String ramp = topics.reading("DUMMY_0", "ramp");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-rbe", topics.all()));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        Agent agent = agent("it-rbe", config(broker).events(false)
                .stream(StreamSpec.parse("DUMMY_0:ramp@20ms deadband=2.5")).build(), bridge);

        sub.await(r -> r.topic().equals(ramp) && r.json().get("value").asDouble() >= 60, WAIT, "the ramp past 60");
        agent.close();

        // 0, then each value more than 2.5 from the last one sent: 3, 6, 9, ... read as the stream's
        // readings 0, 3, 6, 9, ... (the ramp's value is its reading's number).
        List<JsonNode> sent = on(sub, ramp);
        long last = sent.get(sent.size() - 1).get("value").asLong();
        assertEquals(LongStream.iterate(0, v -> v <= last, v -> v + 3).boxed().toList(),
                sent.stream().map(n -> n.get("value").asLong()).toList(), "the values published");
        assertEquals(sent.stream().map(n -> n.get("value").asLong()).toList(),
                sent.stream().map(n -> n.get("sequence").asLong()).toList(), "each value is its reading's number");
        assertEquals(sent.size(), bridge.get().sent(), "the bridge counted what it sent");
        assertTrue(bridge.get().suppressed() >= 2 * sent.size() - 2,
                "two readings of three suppressed, counted: " + bridge.get().suppressed());
    }

    @Test
    void aConstantThroughADeadbandIsPublishedOnceAHeartbeat() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-heartbeat");
        String read = topics.reading("DUMMY_1", "read");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-heartbeat", topics.all()));
        agent("it-heartbeat", config(broker).events(false)
                .stream(StreamSpec.parse("DUMMY_1@50ms deadband=0 heartbeat=500ms")).build(), new AtomicReference<>());

        sub.await(r -> r.topic().equals(read) && r.json().get("sequence").asLong() >= 40, WAIT, "reading 40");

        // 42 every time: the first reading, then the first reading at least 500 ms (on the bridge's
        // clock) after the last one sent, about every tenth reading. The readings' own times, taken
        // on the agent, allow for the delivery's jitter.
        List<JsonNode> sent = on(sub, read);
        assertEquals(0, sent.get(0).get("sequence").asLong());
        for (int i = 1; i < sent.size(); i++) {
            long gap = sent.get(i).get("sequence").asLong() - sent.get(i - 1).get("sequence").asLong();
            long micros = sent.get(i).get("timestampMicros").asLong() - sent.get(i - 1).get("timestampMicros").asLong();
            assertTrue(gap >= 3 && micros >= 300_000, "message " + i + " came " + gap + " readings, " + micros
                    + " us after the one before: not a 500 ms heartbeat");
            assertEquals(42.0, sent.get(i).get("value").asDouble());
        }
        long spanMs = (sent.get(sent.size() - 1).get("timestampMicros").asLong()
                - sent.get(0).get("timestampMicros").asLong()) / 1000;
        assertTrue(sent.size() >= 3 && sent.size() - 1 <= (spanMs + 300) / 500, sent.size() + " messages over " + spanMs
                + " ms: at most one a heartbeat");
    }

    @Test
    void aWindowPublishesOneAggregateOfItsReadingsPerWindow() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-window");
        String ramp = topics.reading("DUMMY_2", "ramp");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-window", topics.all()));
        agent("it-window", config(broker).events(false)
                .stream(StreamSpec.parse("DUMMY_2:ramp@50ms window=500ms")).build(), new AtomicReference<>());

        sub.await(r -> r.topic().equals(ramp) && r.json().get("max").asDouble() >= 40, WAIT, "a window past 40");

        // The ramp's readings, whatever their timing, fall into consecutive windows without a gap:
        // each window holds min..max, one reading per step.
        List<JsonNode> windows = on(sub, ramp);
        double expectedMin = 0;
        for (JsonNode w : windows) {
            assertEquals("window", w.get("aggregate").asText());
            assertEquals(500, w.get("windowMillis").asLong());
            double min = w.get("min").asDouble();
            double max = w.get("max").asDouble();
            assertEquals(expectedMin, min, "windows follow each other: " + windows);
            assertEquals(max - min + 1, w.get("count").asDouble(), "one reading a step: " + w);
            assertEquals((min + max) / 2, w.get("mean").asDouble(), 1e-9, "the mean of a run of steps: " + w);
            expectedMin = max + 1;
        }
        assertTrue(windows.size() >= 3, windows.size() + " windows");
    }
}
