package org.salgate.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportServer;
import org.salgate.wire.Call;
import org.salgate.wire.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;

/**
 * The set-up the stream endpoint hands the agent: its query parameters as the command, the interval,
 * the shared flag and the command's arguments, and a malformed one refused before the agent is asked.
 * The agent here records each set-up and refuses it, which ends the request with a JSON error; what a
 * real agent streams is tested in the http-it module.
 */
@Timeout(30)
class StreamSetupTest {

    /** Accepts every hello, records each stream set-up and refuses it as an unknown sensor. */
    private static final class SetupRecorder implements ServerHandler {
        final BlockingQueue<Call.SetupStream> setups = new LinkedBlockingQueue<>();
        final BlockingQueue<Session> sessions = new LinkedBlockingQueue<>();

        @Override
        public void sessionOpened(Session session) {
            sessions.add(session);
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.accept("setup-recorder"));
            } else if (message instanceof Request r) {
                if (r.call() instanceof Call.SetupStream setup) {
                    setups.add(setup);
                }
                session.send(Response.failure(r.id(), ErrorCode.UNKNOWN_SENSOR, "no sensor in this test"));
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
        }
    }

    private final SetupRecorder agent = new SetupRecorder();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private TransportServer server;

    @BeforeEach
    void start() throws Exception {
        server = new HttpTransportProvider().createServer(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.start(agent);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.localAddress().getPort() + pathAndQuery);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Call.SetupStream nextSetup() throws InterruptedException {
        Call.SetupStream setup = agent.setups.poll(10, TimeUnit.SECONDS);
        assertNotNull(setup, "the agent was asked for no stream");
        return setup;
    }

    @Test
    void sharedTrueAsksTheAgentForItsSharedStreamAndIsNoArgumentOfTheCommand() throws Exception {
        HttpResponse<String> response = get("/api/sensors/DUMMY_0/stream?command=payload&interval=100&shared=true&size=3");

        assertEquals(404, response.statusCode(), response.body());
        assertEquals(new Call.SetupStream("DUMMY_0", "payload", Map.of("size", "3"), 100, null, true), nextSetup());
    }

    @Test
    void withoutSharedOrWithSharedFalseTheStreamIsTheCallersOwn() throws Exception {
        get("/api/sensors/DUMMY_0/stream?interval=100");
        assertFalse(nextSetup().shared());
        get("/api/sensors/DUMMY_0/stream?interval=100&shared=FALSE");
        Call.SetupStream setup = nextSetup();
        assertFalse(setup.shared());
        assertEquals(Map.of(), setup.arguments());
    }

    @Test
    void aSharedValueOtherThanTrueOrFalseIsABadRequestNamingItAndReachesNoAgent() throws Exception {
        HttpResponse<String> response = get("/api/sensors/DUMMY_0/stream?interval=100&shared=yes");

        assertEquals(400, response.statusCode(), response.body());
        JsonNode error = Replies.JSON.readTree(response.body());
        assertEquals("INVALID_ARGUMENT", error.get("error").asText());
        assertEquals("argument 'shared' must be true or false, got 'yes'", error.get("message").asText());
        assertTrue(agent.sessions.isEmpty(), "a malformed request must not open a session on the agent");
    }
}
