package org.salgate.transport.http.rest;

import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.model.Call;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/**
 * The calls requests hand the agent, and the malformed ones refused before it is asked: the stream
 * endpoint's set-up (its query parameters as the command, the interval, the shared flag and the
 * command's arguments) and a command's arguments (the query's parameters and a JSON object body's
 * strings, numbers and booleans, as text). The agent here only records what it gets (the calls stay
 * unanswered); what a real agent answers is tested in the http-it module.
 */
@Timeout(30)
class RequestArgumentsTest {

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

    private HttpRequest get(String pathAndQuery) {
        URI uri = URI.create("http://127.0.0.1:" + server.localAddress().getPort() + pathAndQuery);
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build();
    }

    /** The stream set-up the agent gets for this request, which is left waiting for its answer. */
    private Call.SetupStream setupOf(String pathAndQuery) throws InterruptedException {
        int before = setups().size();
        pending.add(http.sendAsync(get(pathAndQuery), HttpResponse.BodyHandlers.discarding()));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (setups().size() == before) {
            assertTrue(System.nanoTime() < deadline, "the agent was asked for no stream within 10 s");
            Thread.sleep(5);
        }
        return setups().get(before);
    }

    private List<Call.SetupStream> setups() {
        List<Call.SetupStream> setups = new ArrayList<>();
        for (Message message : agent.received) {
            if (message instanceof Request r && r.call() instanceof Call.SetupStream setup) {
                setups.add(setup);
            }
        }
        return setups;
    }

    @Test
    void sharedTrueAsksTheAgentForItsSharedStreamAndIsNoArgumentOfTheCommand() throws Exception {
        assertEquals(new Call.SetupStream("DUMMY_0", "payload", Map.of("size", "3"), 100, null, true),
                setupOf("/api/sensors/DUMMY_0/stream?command=payload&interval=100&shared=true&size=3"));
    }

    @Test
    void withoutSharedOrWithSharedFalseTheStreamIsTheCallersOwn() throws Exception {
        assertFalse(setupOf("/api/sensors/DUMMY_0/stream?interval=100").shared());
        Call.SetupStream setup = setupOf("/api/sensors/DUMMY_0/stream?interval=100&shared=FALSE");
        assertFalse(setup.shared());
        assertEquals(Map.of(), setup.arguments());
    }

    @Test
    void aSharedValueOtherThanTrueOrFalseIsABadRequestNamingItAndReachesNoAgent() throws Exception {
        HttpResponse<String> response = http.send(get("/api/sensors/DUMMY_0/stream?interval=100&shared=yes"),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(400, response.statusCode(), response.body());
        JsonNode error = Replies.JSON.readTree(response.body());
        assertEquals("INVALID_ARGUMENT", error.get("error").asText());
        assertEquals("argument 'shared' must be true or false, got 'yes'", error.get("message").asText());
        assertTrue(agent.opened.isEmpty(), "a malformed request must not open a session on the agent");
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
