package org.salgate.transport.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.session.Tokens;
import org.salgate.client.SalClient;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.model.Call;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/**
 * {@code GET /api/session} answers with the role the agent gave the call's session at its hello: it
 * asks the agent nothing more, so a reader opening the live page is refused nothing (the agent logs
 * no "denied" line for it). The Java client says the same role.
 */
@Timeout(60)
class SessionRoleTest {

    private static final String ADMIN = "http-it-admin-0123456789abcdef";
    private static final String READER = "http-it-reader-0123456789abcdef";

    /** The calls the agent's HTTP sessions made, in order. */
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private HttpAgent agent;

    @BeforeEach
    void start() throws Exception {
        agent = HttpAgent.start(b -> b.tokens(Tokens.parse(List.of(ADMIN + " admin", READER + " reader"), "test tokens"))
                .decorateHandler((door, handler) -> new CallRecorder(handler, calls)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private JsonNode session(String token) throws Exception {
        HttpResponse<String> response = agent.get("/api/session", Map.of("Authorization", "Bearer " + token));
        assertEquals(200, response.statusCode(), response.body());
        return HttpAgent.json(response);
    }

    @Test
    void aReadersSessionIsReaderWithoutACallTheAgentRefuses() throws Exception {
        JsonNode reader = session(READER);
        assertEquals("reader", reader.get("role").asText(), reader.toString());
        assertTrue(reader.get("tokenRequired").asBoolean(), reader.toString());
        assertEquals(List.of(), calls, "GET /api/session made calls, which a reader may be denied");
    }

    @Test
    void anAdminsSessionIsAdminWithoutACall() throws Exception {
        JsonNode admin = session(ADMIN);
        assertEquals("admin", admin.get("role").asText(), admin.toString());
        assertEquals(List.of(), calls, "GET /api/session made calls");
    }

    @Test
    void theJavaClientSaysTheRoleItsTokenWasGiven() throws Exception {
        for (String[] tokenAndRole : new String[][] {{READER, "reader"}, {ADMIN, "admin"}}) {
            try (SalClient client = SalClient.builder().transport(HttpTransportProvider.NAME).port(agent.port())
                    .token(tokenAndRole[0]).connect()) {
                assertEquals(tokenAndRole[1], client.role());
            }
        }
    }

    /** Hands everything on to the agent's handler, noting each request's call. */
    private record CallRecorder(ServerHandler handler, List<Call> calls) implements ServerHandler {

        @Override
        public void sessionOpened(Session session) {
            handler.sessionOpened(session);
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Request request) {
                calls.add(request.call());
            }
            handler.messageReceived(session, message);
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            handler.sessionClosed(session, cause);
        }

        @Override
        public boolean admits(String credentials) {
            return handler.admits(credentials);
        }
    }
}
