package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

/**
 * Home Assistant's MQTT discovery contract, checked on what a real Mosquitto broker keeps: one
 * retained config per published stream under {@code homeassistant/sensor/<node>/<object>/config}
 * (ids of letters, digits, _ and -), each with what Home Assistant needs to make and feed a sensor
 * entity (state topic, value template, unique id, device, availability on the bridge's status),
 * units and device classes from the sensor's description, and an empty retained message when the
 * sensor goes, which Home Assistant takes as the entity's removal.
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttHomeAssistantTest extends BridgeFixture {

    /** Home Assistant's discovery topic: prefix, component, node id, object id, config. */
    private static final Pattern DISCOVERY_TOPIC =
            Pattern.compile("homeassistant/sensor/[a-zA-Z0-9_-]+/[a-zA-Z0-9_-]+/config");

    private static JsonNode awaitConfig(Subscriber sub, String topic) throws InterruptedException {
        return sub.await(r -> r.topic().equals(topic) && !r.payload().isEmpty(), WAIT, "a config on " + topic).json();
    }

    @Test
    void everyStreamGetsARetainedDiscoveryConfigThatFeedsAnEntityAndAGoneSensorsConfigIsCleared() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-ha");
        Subscriber ha = closing(Subscriber.subscribe(broker.url(), "home-assistant", "homeassistant/#"));
        Subscriber data = closing(Subscriber.subscribe(broker.url(), "watcher-ha", topics.all()));
        Agent agent = agent("it-ha", config(broker).stream(StreamSpec.parse("*@100ms")).homeAssistant("homeassistant")
                .build(), new AtomicReference<>());

        Set<String> uniqueIds = new HashSet<>();
        for (String sensor : List.of("DUMMY_0", "DUMMY_1", "DUMMY_2", "DUMMY_3")) {
            String topic = "homeassistant/sensor/salgate_it-ha/" + sensor + "/config";
            assertTrue(DISCOVERY_TOPIC.matcher(topic).matches(), topic);
            JsonNode c = awaitConfig(ha, topic);
            assertEquals(topics.reading(sensor, "read"), c.get("state_topic").asText());
            assertEquals("{{ value_json.value }}", c.get("value_template").asText());
            assertEquals(sensor, c.get("name").asText());
            assertTrue(uniqueIds.add(c.get("unique_id").asText()), "unique_id repeated: " + c);
            assertEquals("salgate_it-ha", c.get("device").get("identifiers").get(0).asText());
            assertEquals(topics.status(), c.get("availability").get(0).get("topic").asText());
            assertEquals("all", c.get("availability_mode").asText());
            assertEquals("measurement", c.get("state_class").asText());
            assertFalse(c.has("unit_of_measurement"), "the dummy's unit is UCUM's 1, dimensionless: " + c);
            // the state topic carries what the template reads: a number, with status OK (available)
            JsonNode reading = data.await(r -> r.topic().equals(c.get("state_topic").asText()), WAIT,
                    "a reading of " + sensor).json();
            assertTrue(reading.get("value").isNumber(), reading.toString());
            assertEquals("OK", reading.get("status").asText());
        }
        assertEquals("online", data.await(r -> r.topic().equals(topics.status()), WAIT, "the status").payload());

        SalClient admin = closing(SalClient.builder().port(agent.port()).connect());
        SensorDescription template = admin.describeSensor("DUMMY_0").get();
        admin.addSensor(SensorMl.write(new SensorDescription("ROOM", "a room's air", template.protocol(), "",
                List.of(Output.quantity("temperature", "http://qudt.org/vocab/quantitykind/Temperature", "Cel")),
                template.sampling()))).get();
        String room = "homeassistant/sensor/salgate_it-ha/ROOM/config";
        JsonNode c = awaitConfig(ha, room);
        assertEquals("°C", c.get("unit_of_measurement").asText());
        assertEquals("temperature", c.get("device_class").asText());

        admin.removeSensor("ROOM").get();
        ha.await(r -> r.topic().equals(room) && r.payload().isEmpty(), WAIT, "the removal of ROOM's config");

        // what Home Assistant finds when it (re)starts: the broker's retained configs, ROOM's gone
        Subscriber restarted = closing(Subscriber.subscribe(broker.url(), "home-assistant-2", "homeassistant/#"));
        awaitConfig(restarted, "homeassistant/sensor/salgate_it-ha/DUMMY_3/config");
        Thread.sleep(500);
        assertTrue(restarted.on(room).isEmpty(), "ROOM's config is still retained: " + restarted.on(room));
        assertTrue(restarted.received.stream().allMatch(Subscriber.Received::retained));
    }
}
