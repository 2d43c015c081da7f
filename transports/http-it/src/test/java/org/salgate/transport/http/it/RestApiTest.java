package org.salgate.transport.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.model.ErrorCode;
import org.salgate.model.Reading;

/** The REST/JSON API and its event streams, as curl or a browser uses them, against an agent with its defaults. */
@Timeout(60)
class RestApiTest {

    private HttpAgent agent;

    @BeforeEach
    void start() throws Exception {
        agent = HttpAgent.start();
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private SalClient javaClient() throws Exception {
        return SalClient.builder().transport(HttpTransportProvider.NAME).port(agent.port()).clientName("rest-it").connect();
    }

    @Test
    void listsTheTwentyEightDefaultSensorsAsJson() throws Exception {
        HttpResponse<String> response = agent.get("/api/sensors");
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        JsonNode sensors = HttpAgent.json(response);
        assertEquals(28, sensors.size(), response.body());
        Set<String> protocols = new HashSet<>();
        sensors.forEach(s -> protocols.add(s.get("protocol").asText()));
        assertEquals(Set.of("dummy", "os"), protocols);
        JsonNode first = sensors.get(0);
        for (String field : List.of("id", "protocol", "state", "description")) {
            assertTrue(first.hasNonNull(field), "a sensor lacks " + field + ": " + first);
        }
    }

    @Test
    void describesASensorAsJsonOrAsSensorMlByAccept() throws Exception {
        JsonNode summary = HttpAgent.json(agent.get("/api/sensors/DUMMY_0"));
        assertEquals("DUMMY_0", summary.get("id").asText());
        assertEquals("dummy", summary.get("protocol").asText());
        assertFalse(summary.get("description").asText().isEmpty());

        HttpResponse<String> xml = agent.get("/api/sensors/DUMMY_0", Map.of("Accept", "application/xml"));
        assertEquals(200, xml.statusCode());
        assertTrue(xml.headers().firstValue("content-type").orElse("").startsWith("application/xml"));
        SensorDescription described = SensorMl.read(xml.body());
        assertEquals("DUMMY_0", described.id());

        HttpResponse<String> cml = agent.get("/api/sensors/DUMMY_0/commands");
        assertEquals(200, cml.statusCode());
        assertTrue(cml.body().contains("id=\"read\""), cml.body());
    }

    @Test
    void executesACommandWithQueryOrJsonArgumentsAndReturnsOneReading() throws Exception {
        JsonNode reading = HttpAgent.json(agent.post("/api/sensors/DUMMY_1/commands/read", "application/json", ""));
        assertEquals("DUMMY_1", reading.get("sensor").asText());
        assertEquals("OK", reading.get("status").asText());
        assertEquals(42.0, reading.get("value").asDouble());

        JsonNode payload = HttpAgent.json(agent.post("/api/sensors/DUMMY_1/commands/payload", "application/json",
                "{\"size\": 16}"));
        assertEquals("base64", payload.get("encoding").asText());
        assertEquals(16, java.util.Base64.getDecoder().decode(payload.get("value").asText()).length);

        JsonNode byQuery = HttpAgent.json(agent.post("/api/sensors/DUMMY_1/commands/payload?size=3", "text/plain", ""));
        assertEquals(3, java.util.Base64.getDecoder().decode(byQuery.get("value").asText()).length);
    }

    @Test
    void refusalsAreJsonErrorsWithTheAgentsOwnWordsAndFittingStatus() throws Exception {
        HttpResponse<String> unknown = agent.get("/api/sensors/NO_SUCH");
        assertEquals(404, unknown.statusCode());
        JsonNode error = HttpAgent.json(unknown);
        assertEquals("UNKNOWN_SENSOR", error.get("error").asText());

        HttpResponse<String> badArgument = agent.post("/api/sensors/DUMMY_0/commands/payload?size=lots", "text/plain", "");
        assertEquals(400, badArgument.statusCode());
        JsonNode badError = HttpAgent.json(badArgument);
        assertEquals("INVALID_ARGUMENT", badError.get("error").asText());
        assertTrue(badError.get("message").asText().contains("size"), "the message must name the argument: " + badError);

        HttpResponse<String> unknownCommand = agent.post("/api/sensors/DUMMY_0/commands/fly", "text/plain", "");
        assertEquals(404, unknownCommand.statusCode());
        assertEquals("UNKNOWN_COMMAND", HttpAgent.json(unknownCommand).get("error").asText());

        HttpResponse<String> badBody = agent.post("/api/sensors/DUMMY_0/commands/read", "application/json", "[1, 2]");
        assertEquals(400, badBody.statusCode());
        assertTrue(HttpAgent.json(badBody).get("message").asText().contains("body"));

        try (SalClient client = javaClient()) {
            SalException fromClient = refusal(() -> client.describeSensorXml("NO_SUCH").join());
            assertEquals(ErrorCode.UNKNOWN_SENSOR, fromClient.code());
            assertEquals(fromClient.getMessage(), error.get("message").asText(), "REST and the Java client must say the same");
            SalException badFromClient = refusal(() -> client.execute("DUMMY_0", "payload", Map.of("size", "lots")).join());
            assertEquals(badFromClient.getMessage(), badError.get("message").asText());
        }

        HttpResponse<String> noRoute = agent.get("/api/nothing-here");
        assertEquals(404, noRoute.statusCode());
        assertEquals("NOT_FOUND", HttpAgent.json(noRoute).get("error").asText());
        HttpResponse<String> wrongMethod = agent.send(HttpRequest.newBuilder(agent.uri("/api/sensors"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(405, wrongMethod.statusCode());
        assertEquals("GET, POST", wrongMethod.headers().firstValue("allow").orElse(""));
        HttpResponse<String> plainGetOfTheWebSocket = agent.get(HttpTransportProvider.WEBSOCKET_PATH);
        assertEquals(426, plainGetOfTheWebSocket.statusCode());
        assertEquals("UPGRADE_REQUIRED", HttpAgent.json(plainGetOfTheWebSocket).get("error").asText());
    }

    private static SalException refusal(Runnable call) {
        try {
            call.run();
        } catch (CompletionException e) {
            if (e.getCause() instanceof SalException s) {
                return s;
            }
            throw e;
        }
        throw new AssertionError("the call did not fail");
    }

    @Test
    void servesProtocolsAndConfigAndAddsAndRemovesProtocolsAndSensors() throws Exception {
        JsonNode protocols = HttpAgent.json(agent.get("/api/protocols"));
        assertEquals(2, protocols.size());
        HttpResponse<String> config = agent.get("/api/config");
        assertEquals(200, config.statusCode());
        assertTrue(config.body().contains("urn:salgate:pcml:1.0"), config.body());

        String pcml = "<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"extra\" type=\"dummy\" endpoint=\"virtual\">"
                + "<parameter name=\"sensors\" value=\"2\"/><parameter name=\"prefix\" value=\"EXTRA\"/></protocol></platform>";
        HttpResponse<String> added = agent.post("/api/protocols", "application/xml", pcml);
        assertEquals(201, added.statusCode(), added.body());
        assertEquals("extra", HttpAgent.json(added).get(0).get("name").asText());
        assertEquals(30, HttpAgent.json(agent.get("/api/sensors")).size());
        assertEquals(409, agent.post("/api/protocols", "application/xml", pcml).statusCode());
        assertEquals(400, agent.post("/api/protocols", "application/xml", "<garbage").statusCode());
        assertEquals(204, agent.delete("/api/protocols/extra").statusCode());
        assertEquals(404, agent.delete("/api/protocols/extra").statusCode());

        SensorDescription template = SensorMl.read(agent.get("/api/sensors/DUMMY_0", Map.of("Accept", "application/xml")).body());
        SensorDescription extra = new SensorDescription("DUMMY_EXTRA", "added over REST", template.protocol(), "",
                template.outputs(), template.sampling());
        HttpResponse<String> sensor = agent.post("/api/sensors", "application/xml", SensorMl.write(extra));
        assertEquals(201, sensor.statusCode(), sensor.body());
        assertEquals("DUMMY_EXTRA", HttpAgent.json(sensor).get("id").asText());
        assertEquals(200, agent.post("/api/sensors/DUMMY_EXTRA/commands/read", "text/plain", "").statusCode());
        assertEquals(204, agent.delete("/api/sensors/DUMMY_EXTRA").statusCode());
        assertEquals(404, agent.delete("/api/sensors/DUMMY_EXTRA").statusCode());
    }

    @Test
    void streamsReadingsAsServerSentEventsWhoseIdsAreTheSequenceNumbers() throws Exception {
        HttpResponse<Stream<String>> response = agent.client().send(HttpRequest.newBuilder(
                agent.uri("/api/sensors/DUMMY_2/stream?interval=20")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        List<String> ids = new ArrayList<>();
        List<JsonNode> data = new ArrayList<>();
        try (Stream<String> lines = response.body()) {
            var it = lines.iterator();
            while (ids.size() < 10 && it.hasNext()) {
                String line = it.next();
                if (line.startsWith("id: ")) {
                    ids.add(line.substring(4));
                } else if (line.startsWith("data: ")) {
                    data.add(HttpAgent.JSON.readTree(line.substring(6)));
                }
            }
        }
        assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), ids);
        for (int i = 0; i < data.size(); i++) {
            assertEquals(i, data.get(i).get("sequence").asLong());
            assertEquals(42.0, data.get(i).get("value").asDouble());
        }
        // The stream closed with the connection: the agent stops it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (HttpAgent.json(agent.get("/api/sensors?active=true")).size() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, HttpAgent.json(agent.get("/api/sensors?active=true")).size(), "the stream outlived its caller");
    }

    @Test
    void aSharedStreamsEventIdsAreTheSharedStreamsSequenceNumbersFromWhereItIs() throws Exception {
        try (SalClient client = javaClient()) {
            Map<Long, Reading> seen = new ConcurrentHashMap<>();
            client.stream("DUMMY_2", "read", null, 20, null, true, r -> seen.put(r.sequence(), r)).get(20, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (seen.size() < 5 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(seen.size() >= 5, "the Java client's shared stream got " + seen.size() + " readings");

            HttpResponse<Stream<String>> response = agent.client().send(HttpRequest.newBuilder(
                    agent.uri("/api/sensors/DUMMY_2/stream?interval=20&shared=true")).timeout(Duration.ofSeconds(20))
                    .build(), HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, response.statusCode());
            JsonNode first = null;
            try (Stream<String> lines = response.body()) {
                var it = lines.iterator();
                while (first == null && it.hasNext()) {
                    String line = it.next();
                    if (line.startsWith("data: ")) {
                        first = HttpAgent.JSON.readTree(line.substring(6));
                    }
                }
            }
            assertTrue(first != null, "the shared event stream sent no reading");
            long sequence = first.get("sequence").asLong();
            assertTrue(sequence >= 5, "the shared stream was past 5 readings when the caller joined, its first was #"
                    + sequence);
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!seen.containsKey(sequence) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(seen.get(sequence).timestampMicros(), first.get("timestampMicros").asLong(),
                    "the event stream and the Java client got the same reading #" + sequence);
        }
    }

    @Test
    void aSharedStreamAtIntervalZeroIsABadRequestInTheAgentsWords() throws Exception {
        HttpResponse<String> refused = agent.get("/api/sensors/DUMMY_0/stream?interval=0&shared=true");
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals("INVALID_ARGUMENT", HttpAgent.json(refused).get("error").asText());
    }

    @Test
    void aStreamThatCannotStartIsAJsonError() throws Exception {
        HttpResponse<String> unknown = agent.get("/api/sensors/NO_SUCH/stream?interval=100");
        assertEquals(404, unknown.statusCode());
        assertEquals("UNKNOWN_SENSOR", HttpAgent.json(unknown).get("error").asText());
        HttpResponse<String> badInterval = agent.get("/api/sensors/DUMMY_0/stream?interval=soon");
        assertEquals(400, badInterval.statusCode());
        assertTrue(HttpAgent.json(badInterval).get("message").asText().contains("interval"));
    }

    @Test
    void eventsStreamReportsAnAddedProtocol() throws Exception {
        HttpResponse<Stream<String>> response = agent.client().send(HttpRequest.newBuilder(agent.uri("/api/events"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        String pcml = "<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"later\" type=\"dummy\" endpoint=\"virtual\">"
                + "<parameter name=\"sensors\" value=\"1\"/><parameter name=\"prefix\" value=\"LATER\"/></protocol></platform>";
        // The subscription is made before the headers are sent, so an event after them is seen.
        assertEquals(201, agent.post("/api/protocols", "application/xml", pcml).statusCode());
        boolean seen = false;
        try (Stream<String> lines = response.body()) {
            var it = lines.iterator();
            while (!seen && it.hasNext()) {
                String line = it.next();
                if (line.startsWith("data: ")) {
                    JsonNode event = HttpAgent.JSON.readTree(line.substring(6));
                    seen = event.get("type").asText().equals("PROTOCOL_ADDED") && event.get("subject").asText().equals("later");
                }
            }
        }
        assertTrue(seen, "no PROTOCOL_ADDED event for 'later'");
    }

    @Test
    void keepsTheConnectionAliveAndAnswersPipelinedRequestsInOrder() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", agent.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String requests = "GET /api/sensors/NO_SUCH HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "POST /api/sensors/DUMMY_0/commands/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
                    + "GET /api/protocols HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            out.write(requests.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int first = all.indexOf("HTTP/1.1 404");
            int second = all.indexOf("HTTP/1.1 200", first);
            int third = all.indexOf("HTTP/1.1 200", second + 1);
            assertTrue(first >= 0 && second > first && third > second, "answers out of order or missing:\n" + all);
            assertTrue(all.indexOf("\"value\":42.0") > second && all.indexOf("\"value\":42.0") < third, all);
            assertTrue(all.indexOf("\"sensorCount\"") > third, all);
        }
    }

    @Test
    void servesTheOpenApiDocumentAndThePage() throws Exception {
        HttpResponse<String> openApi = agent.get("/api/openapi.json");
        assertEquals(200, openApi.statusCode());
        assertTrue(HttpAgent.json(openApi).get("paths").has("/api/sensors/{id}/stream"));
        HttpResponse<String> page = agent.get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("content-type").orElse("").startsWith("text/html"));
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new java.io.ByteArrayInputStream(page.body().getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))) {
            assertTrue(r.lines().anyMatch(l -> l.contains("app.js")), "the page does not load its script");
        }
        assertEquals(200, agent.get("/app.js").statusCode());
    }
}
