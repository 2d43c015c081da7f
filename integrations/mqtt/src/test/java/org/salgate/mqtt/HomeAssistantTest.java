package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;

class HomeAssistantTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> published = new ArrayList<>();
    private final HomeAssistant ha = new HomeAssistant("homeassistant", "lab/1", new Topics("salgate", "lab/1"),
            (topic, payload) -> published.add(topic + " " + new String(payload, StandardCharsets.UTF_8)));

    private static SensorDescription sensor(String id, Output output) {
        return new SensorDescription(id, "", "p", "", List.of(output), SamplingBounds.ANY);
    }

    private static JsonNode config(String published) throws Exception {
        return JSON.readTree(published.substring(published.indexOf(' ') + 1));
    }

    @Test
    void aStreamIsAnnouncedOnceItsSensorIsDescribedInWhicheverOrderTheyCome() throws Exception {
        ha.streamStarted(StreamSpec.parse("bus.water@1s"));
        assertEquals(List.of(), published);
        ha.described(sensor("bus.water", Output.quantity("temperature", "urn:x", "Cel")));
        assertEquals(1, published.size());
        assertEquals("homeassistant/sensor/salgate_lab_1/bus_water/config", published.get(0).split(" ")[0]);
        JsonNode c = config(published.get(0));
        assertEquals("salgate/lab_1/sensors/bus.water/read", c.get("state_topic").asText());
        assertEquals("salgate_lab_1_bus_water", c.get("unique_id").asText());
        assertEquals("°C", c.get("unit_of_measurement").asText());
        assertEquals("temperature", c.get("device_class").asText());
        assertEquals("salgate/lab_1/status", c.get("availability").get(0).get("topic").asText());

        ha.described(sensor("other", Output.quantity("v", "urn:x", "V")));
        ha.streamStarted(StreamSpec.parse("other:peak@1s"));
        JsonNode peak = config(published.get(1));
        assertEquals("homeassistant/sensor/salgate_lab_1/other_peak/config", published.get(1).split(" ")[0]);
        assertEquals("other peak", peak.get("name").asText());
        assertEquals("voltage", peak.get("device_class").asText());
    }

    @Test
    void unitsAndClassesFollowTheDescriptionAndTextHasNone() throws Exception {
        JsonNode humidity = JSON.readTree(ha.config(sensor("h", Output.quantity("relativeHumidity", "urn:x", "%")),
                "read"));
        assertEquals("humidity", humidity.get("device_class").asText());
        JsonNode load = JSON.readTree(ha.config(sensor("cpu", Output.quantity("load", "urn:x", "%")), "read"));
        assertEquals("%", load.get("unit_of_measurement").asText());
        assertFalse(load.has("device_class"));
        JsonNode odd = JSON.readTree(ha.config(sensor("o", Output.quantity("x", "urn:x", "[in_i]")), "read"));
        assertEquals("[in_i]", odd.get("unit_of_measurement").asText());
        JsonNode text = JSON.readTree(ha.config(sensor("t", new Output("fix", "urn:x", Output.DataType.TEXT, "")),
                "read"));
        assertFalse(text.has("state_class"));
        assertFalse(text.has("unit_of_measurement"));
    }

    @Test
    void anEndedStreamOrARemovedSensorClearsItsConfigOnceAndOnlyWhatWasAnnounced() {
        ha.described(sensor("a", Output.quantity("v", "urn:x", "V")));
        ha.streamStarted(StreamSpec.parse("a@1s"));
        ha.streamStarted(StreamSpec.parse("a:peak@1s"));
        ha.streamStarted(StreamSpec.parse("unknown@1s"));
        published.clear();
        ha.streamEnded(StreamSpec.parse("a:peak@5s"));
        ha.streamEnded(StreamSpec.parse("unknown@1s"));
        assertEquals(List.of("homeassistant/sensor/salgate_lab_1/a_peak/config "), published);
        ha.sensorRemoved("a");
        ha.sensorRemoved("a");
        assertEquals(List.of("homeassistant/sensor/salgate_lab_1/a_peak/config ",
                "homeassistant/sensor/salgate_lab_1/a/config "), published);
    }

    @Test
    void aPrefixThatCannotStartATopicIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MqttBridgeConfig.builder("tcp://127.0.0.1:1883")
                .homeAssistant("home/#"));
        assertThrows(IllegalArgumentException.class, () -> MqttBridgeConfig.builder("tcp://127.0.0.1:1883")
                .homeAssistant("/homeassistant"));
    }

    @Test
    void discoveryIsRefusedWithLineProtocolPayloadsWhichItsTemplatesCannotRead() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MqttBridgeConfig
                .builder("tcp://127.0.0.1:1883").homeAssistant("homeassistant")
                .payloadFormat(MqttBridgeConfig.PayloadFormat.INFLUX).build());
        assertTrue(e.getMessage().contains("--mqtt-homeassistant with --mqtt-format json"), e.getMessage());
    }
}
