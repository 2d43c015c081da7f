package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;

/**
 * Node-RED, a consumer nobody here wrote, reads what the bridge publishes through a real Mosquitto:
 * its flow subscribes to the agent's topics as an MQTT 3.1.1 client and writes each message to a
 * file, which the test reads back.
 */
@Tag("mqtt")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MqttNodeRedConsumerTest extends BridgeFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void nodeRedReceivesTheStatusTheDescriptionsAndEveryReadingInOrderAsJson() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-nodered");
        NodeRed nodeRed = closing(NodeRed.start(dir.resolve("node-red"), broker.port(), topics.all()));
        agent("it-nodered", config(broker).stream(StreamSpec.parse("DUMMY_0@50ms"))
                .stream(StreamSpec.parse("DUMMY_1@50ms")).build(), new AtomicReference<>());

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<JsonNode> dummy0 = List.of();
        List<JsonNode> dummy1 = List.of();
        while (System.nanoTime() < deadline && (dummy0.size() < 40 || dummy1.size() < 40)) {
            Thread.sleep(200);
            dummy0 = readings(nodeRed.received(), topics.reading("DUMMY_0", "read"));
            dummy1 = readings(nodeRed.received(), topics.reading("DUMMY_1", "read"));
        }
        assertTrue(dummy0.size() >= 40 && dummy1.size() >= 40, "Node-RED wrote " + dummy0.size() + " and "
                + dummy1.size() + " readings; its log:\n" + nodeRed.log());
        for (List<JsonNode> readings : List.of(dummy0, dummy1)) {
            for (int i = 0; i < readings.size(); i++) {
                JsonNode r = readings.get(i);
                assertEquals(i, r.get("sequence").asLong(), "every reading, in order, from the first: " + r);
                assertEquals("OK", r.get("status").asText());
                assertEquals(42.0, r.get("value").asDouble(), 0.0);
            }
        }
        List<String> lines = nodeRed.received();
        assertTrue(lines.contains(topics.status() + "\t\"online\""), "no status line: " + lines.subList(0, 5));
        String description = lines.stream().filter(l -> l.startsWith(topics.description("DUMMY_0") + "\t"))
                .findFirst().orElseThrow(() -> new AssertionError("no description of DUMMY_0"));
        assertTrue(JSON.readTree(description.substring(description.indexOf('\t') + 1)).asText()
                .contains("<sml:PhysicalComponent"), description);
    }

    /** The payloads Node-RED received on {@code topic}, parsed back from the lines it wrote. */
    private static List<JsonNode> readings(List<String> lines, String topic) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(topic + "\t")) {
                found.add(JSON.readTree(line.substring(topic.length() + 1)));
            }
        }
        return found;
    }
}
