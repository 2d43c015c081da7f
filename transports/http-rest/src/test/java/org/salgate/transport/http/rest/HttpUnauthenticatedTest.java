package org.salgate.transport.http.rest;

import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportServer;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;

/**
 * An agent that checks tokens only at the hello (its handler does not answer {@code admits}, so every
 * request gets past the headers): its refusal reaches an HTTP caller as a 401 that tells it how HTTP
 * carries a token, whatever the agent's own advice for its command-line clients.
 */
@Timeout(30)
class HttpUnauthenticatedTest {

    /** Refuses every hello as the agent refuses a client without a token. */
    private static final ServerHandler REFUSES_HELLOS = new ServerHandler() {
        @Override
        public void sessionOpened(Session session) {
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.refuse("test-agent", ErrorCode.UNAUTHENTICATED,
                        "this agent requires a token: give one with --token or the SALGATE_TOKEN environment variable."));
                session.close();
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
        }
    };

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private TransportServer server;

    @BeforeEach
    void start() throws Exception {
        server = new HttpTransportProvider().createServer(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.start(REFUSES_HELLOS);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.localAddress().getPort() + path)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertHttpAdvice(HttpResponse<String> response) throws Exception {
        assertEquals(401, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"),
                "no WWW-Authenticate: Bearer header: " + response.headers().map());
        String message = Replies.JSON.readTree(response.body()).get("message").asText();
        assertFalse(message.contains("--token") || message.contains("SALGATE_TOKEN"),
                "an HTTP caller is given the command line's advice: " + message);
        assertTrue(message.contains("Authorization: Bearer"), message);
    }

    @Test
    void restCallRefusedAtTheHelloSaysToSendAnAuthorizationBearerHeader() throws Exception {
        assertHttpAdvice(get("/api/sensors"));
    }

    @Test
    void eventStreamRefusedAtTheHelloSaysToSendAnAuthorizationBearerHeader() throws Exception {
        assertHttpAdvice(get("/api/events", "Accept", "text/event-stream"));
    }

    @Test
    void wrongTokenRefusedAtTheHelloIsA401WithTheBearerChallenge() throws Exception {
        HttpResponse<String> response = get("/api/sensors", "Authorization", "Bearer not-a-token-of-this-agent");
        assertHttpAdvice(response);
        assertTrue(Replies.JSON.readTree(response.body()).get("message").asText().contains("not one of this agent's tokens"),
                response.body());
    }
}
