package org.salgate.transport.http.rest;

import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.model.Call;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/**
 * The arguments a command's POST hands the agent: the query's parameters and a JSON object body's
 * strings, numbers and booleans, as text; any other body refused before the agent is asked. The
 * agent here only records what it gets (the call stays unanswered).
 */
@Timeout(30)
class CommandArgumentsTest {

    private final RecordingServerHandler agent = new RecordingServerHandler();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final List<CompletableFuture<?>> pending = new CopyOnWriteArrayList<>();
    private TransportServer server;

    @BeforeEach
    void start() throws Exception {
        server = new HttpTransportProvider().createServer(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.start(agent);
    }

    @AfterEach
    void stop() {
        pending.forEach(request -> request.cancel(true));
        server.close();
    }

    private HttpRequest post(String pathAndQuery, String json) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.localAddress().getPort() + pathAndQuery))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private Call.Execute executed() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            for (Message message : agent.received) {
                if (message instanceof Request r && r.call() instanceof Call.Execute execute) {
                    return execute;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the agent was asked to execute nothing within 10 s");
            Thread.sleep(5);
        }
    }

    @Test
    void theQueryAndAJsonObjectsScalarMembersAreTheArgumentsAsText() throws Exception {
        pending.add(http.sendAsync(post("/api/sensors/DUMMY_0/commands/payload?unit=kB",
                "{\"size\": 16, \"fast\": true, \"label\": \"x\", \"ratio\": 0.5}"), HttpResponse.BodyHandlers.discarding()));
        assertEquals(new Call.Execute("DUMMY_0", "payload", Map.of("unit", "kB", "size", "16", "fast", "true",
                "label", "x", "ratio", "0.5")), executed());
    }

    @Test
    void aBodyThatIsNoObjectOfScalarsIsABadRequestNamingTheBodyAndReachesNoAgent() throws Exception {
        for (String body : List.of("[1, 2]", "{\"size\": null}", "{\"size\": {\"bytes\": 16}}", "{\"size\": [16]}",
                "null", "{\"size\": 16")) {
            HttpResponse<String> response = http.send(post("/api/sensors/DUMMY_0/commands/payload", body),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, response.statusCode(), body + ": " + response.body());
            JsonNode error = Replies.JSON.readTree(response.body());
            assertEquals("INVALID_ARGUMENT", error.get("error").asText(), body);
            assertTrue(error.get("message").asText().startsWith("argument 'body' must be a JSON object"),
                    body + ": " + error);
        }
        assertTrue(agent.opened.isEmpty(), "a malformed request must not open a session on the agent");
    }
}
