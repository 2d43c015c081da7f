package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.report.Report;

/** The JSON of what a stream's report filter lets through. */
class WindowPayloadTest {

    @Test
    void aWindowSaysItIsAnAggregateAndGivesItsBoundsAndFigures() throws Exception {
        Report.Window w = new Report.Window("CPU_LOAD", 10_000_000, Duration.ofSeconds(10), 10, 0.5, 2.5, 1.25, "%");
        JsonNode n = new ObjectMapper().readTree(Payloads.report(w, "read"));
        assertEquals("window", n.get("aggregate").asText());
        assertEquals("CPU_LOAD", n.get("sensor").asText());
        assertEquals("1970-01-01T00:00:10Z", n.get("windowStart").asText());
        assertEquals("1970-01-01T00:00:20Z", n.get("windowEnd").asText());
        assertEquals(10_000, n.get("windowMillis").asLong());
        assertEquals(20_000_000, n.get("timestampMicros").asLong());
        assertEquals(10, n.get("count").asLong());
        assertEquals(0.5, n.get("min").asDouble());
        assertEquals(2.5, n.get("max").asDouble());
        assertEquals(1.25, n.get("mean").asDouble());
        assertEquals("%", n.get("unit").asText());
        assertEquals(1.25, n.get("value").asDouble(), "the value is the mean, for consumers reading value");
        assertEquals("OK", n.get("status").asText());
    }

    @Test
    void aSentReadingIsTheUsualReadingPayload() throws Exception {
        Reading r = Reading.ok("T", 1_000_000, 7, Value.of(21.5)).withUnit("Cel");
        byte[] sent = Payloads.report(new Report.Sent(r, Report.Reason.HEARTBEAT), "read");
        assertEquals(new String(Payloads.reading(r, "read")), new String(sent));
    }
}
