package org.salgate.transport.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.transport.http.Replies;

/** The JSON of a reading is what the OpenAPI document's Reading schema says. */
class ReadingJsonTest {

    private static JsonNode readingSchema() throws Exception {
        return Replies.JSON.readTree(RestApi.resource(RestApi.OPENAPI)).at("/components/schemas/Reading");
    }

    @Test
    void aReadingShowsItsUnitAndTheDevicesTimeWhenItGaveOne() {
        ObjectNode stamped = EventStream.reading(Reading.ok("meter.voltage", 5, 2, Value.of(230.5)).withUnit("V")
                .withDeviceTime(1_700_000_000_000_001L));
        assertEquals("V", stamped.get("unit").asText());
        assertEquals(1_700_000_000_000_001L, stamped.get("deviceTimeMicros").asLong());
        ObjectNode plain = EventStream.reading(Reading.ok("DUMMY_0", 5, 2, Value.of(1L)));
        assertEquals("", plain.get("unit").asText());
        assertFalse(plain.has("deviceTimeMicros"));
    }

    @Test
    void aDisconnectedReadingShowsItsStatusAndWhy() {
        ObjectNode node = EventStream.reading(Reading.disconnected("meter.voltage", 5, 0, "down; next attempt in 1.0 s"));
        assertEquals("DISCONNECTED", node.get("status").asText());
        assertTrue(node.get("value").isNull());
        assertEquals("down; next attempt in 1.0 s", node.get("error").asText());
    }

    @Test
    void theDocumentedStatusesAreTheModelsStatuses() throws Exception {
        Set<String> documented = new TreeSet<>();
        readingSchema().at("/properties/status/enum").forEach(s -> documented.add(s.asText()));
        Set<String> declared = new TreeSet<>(Arrays.stream(Reading.Status.values()).map(Enum::name).toList());
        assertEquals(declared, documented);
    }

    @Test
    void everyFieldOfAReadingIsDocumentedAndEveryRequiredOneIsThere() throws Exception {
        JsonNode schema = readingSchema();
        for (Reading r : List.of(Reading.ok("s", 1, 0, Value.of(new byte[] {1})).withUnit("By").withDeviceTime(3),
                Reading.error("s", 1, 0, "why"))) {
            ObjectNode node = EventStream.reading(r);
            node.fieldNames().forEachRemaining(f -> assertTrue(schema.at("/properties").has(f), f + " is undocumented"));
            schema.get("required").forEach(f -> assertTrue(node.has(f.asText()), f.asText() + " is missing"));
        }
    }
}
