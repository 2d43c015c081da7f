package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;

class PayloadsTest {

    private static JsonNode json(byte[] payload) throws Exception {
        return new ObjectMapper().readTree(payload);
    }

    @Test
    void aReadingIsPublishedWithItsOwnUnitAndTheDevicesTime() throws Exception {
        JsonNode n = json(Payloads.reading(Reading.ok("meter.voltage", 1_000_000, 4, Value.of(230.5)).withUnit("V")
                .withDeviceTime(2_500_000), "read"));
        assertEquals("V", n.get("unit").asText());
        assertEquals(230.5, n.get("value").asDouble());
        assertEquals("OK", n.get("status").asText());
        assertEquals("1970-01-01T00:00:02.500Z", n.get("deviceTime").asText());
        assertEquals(2_500_000, n.get("deviceTimeMicros").asLong());
        assertFalse(n.has("error"));
    }

    @Test
    void aReadingWithoutADeviceTimeHasNoneAndADisconnectedOneSaysWhy() throws Exception {
        JsonNode n = json(Payloads.reading(Reading.disconnected("meter.voltage", 1, 0, "down; next attempt in 1.0 s"),
                "read"));
        assertEquals("DISCONNECTED", n.get("status").asText());
        assertTrue(n.get("value").isNull());
        assertEquals("", n.get("unit").asText());
        assertEquals("down; next attempt in 1.0 s", n.get("error").asText());
        assertFalse(n.has("deviceTime"));
        assertFalse(n.has("deviceTimeMicros"));
    }
}
