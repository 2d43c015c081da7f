package org.salgate.influx.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.LineProtocol;

/**
 * The encoder's escaping as InfluxDB 1.x reads it: names, tags and strings with every special
 * character come back as they were.
 */
@Tag("influx")
class LineProtocolRoundTripTest {

    private static final long T = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    private InfluxServer influx;

    @AfterEach
    void stop() throws Exception {
        if (influx != null) {
            influx.close();
        }
    }

    @Test
    void specialCharactersInNamesTagsAndStringsComeBackAsWritten() throws Exception {
        influx = InfluxServer.start(dir);
        influx.query(null, "CREATE DATABASE lab");
        LineProtocol lines = new LineProtocol("lab data,v2", "agent one", LineProtocol.Precision.US);
        List<String> sensors = List.of("plain", "with space", "comma,and=equals", "back\\slash", "quote\"d",
                "température", "tab\tin");
        List<String> texts = List.of("say \"hi\"", "C:\\tmp\\", "two\nlines", "a,b=c d", "", "ünïcödé", "\\\"");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < sensors.size(); i++) {
            Reading r = new Reading(sensors.get(i), T + i, i, Value.of(texts.get(i)), Reading.Status.OK, "",
                    "m/s", 0);
            body.append(lines.reading(r, "read,now")).append('\n');
        }
        HttpResponse<String> written = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(influx.url() + "/write?db=lab&precision=" + lines.precision().v1Name()))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(204, written.statusCode(), written.body());

        JsonNode result = influx.query("lab", "SELECT \"value\", \"sequence\" FROM \"lab data,v2\" GROUP BY *");
        List<String> sensorsRead = new ArrayList<>();
        List<String> textsRead = new ArrayList<>();
        for (JsonNode series : result.path("series")) {
            JsonNode tags = series.path("tags");
            assertEquals("agent one", tags.path("agent").asText());
            assertEquals("read,now", tags.path("command").asText());
            assertEquals("m/s", tags.path("unit").asText());
            JsonNode row = series.path("values").path(0);
            assertEquals(T + row.path(2).asLong(), row.path(0).asLong(), "the point's time is the reading's");
            int i = row.path(2).asInt();
            while (sensorsRead.size() <= i) {
                sensorsRead.add(null);
                textsRead.add(null);
            }
            sensorsRead.set(i, tags.path("sensor").asText());
            textsRead.set(i, row.path(1).asText());
        }
        assertEquals(sensors, sensorsRead);
        assertEquals(texts, textsRead);
    }
}
