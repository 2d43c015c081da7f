package org.salgate.transport.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.session.Tokens;

/**
 * The REST API of an agent with tokens, as curl uses it: a request without a token the agent accepts
 * is told, with the {@code WWW-Authenticate: Bearer} challenge, to send {@code Authorization: Bearer};
 * {@code /api/session} says which role a token has.
 */
@Timeout(60)
class SecuredRestApiTest {

    private static final String ADMIN = "http-it-admin-0123456789abcdef";
    private static final String READER = "http-it-reader-0123456789abcdef";

    private HttpAgent agent;

    @BeforeEach
    void start() throws Exception {
        agent = HttpAgent.start(b -> b.tokens(Tokens.parse(List.of(ADMIN + " admin", READER + " reader"), "test tokens")));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private static void assertToldToSendABearerToken(HttpResponse<String> response) throws Exception {
        assertEquals(401, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"),
                "no WWW-Authenticate: Bearer challenge: " + response.headers().map());
        JsonNode body = HttpAgent.json(response);
        assertEquals("UNAUTHENTICATED", body.get("error").asText());
        String message = body.get("message").asText();
        assertTrue(message.contains("Authorization: Bearer"), message);
        assertFalse(message.contains("--token") || message.contains("SALGATE_TOKEN"), "the CLI's advice: " + message);
    }

    @Test
    void restCallWithoutATokenIsTold401ToSendAuthorizationBearer() throws Exception {
        assertToldToSendABearerToken(agent.get("/api/sensors"));
    }

    @Test
    void eventStreamWithoutATokenIsTold401ToSendAuthorizationBearer() throws Exception {
        assertToldToSendABearerToken(agent.get("/api/events", Map.of("Accept", "text/event-stream")));
    }

    @Test
    void restCallWithAWrongTokenIsTold401ThatTheTokenIsNotTheAgents() throws Exception {
        HttpResponse<String> response = agent.get("/api/sensors", bearer("not-a-token-of-this-agent"));
        assertToldToSendABearerToken(response);
        assertTrue(HttpAgent.json(response).get("message").asText().contains("not one of this agent's tokens"));
    }

    @Test
    void sessionSaysTheRoleOfTheCallersToken() throws Exception {
        HttpResponse<String> reader = agent.get("/api/session", bearer(READER));
        assertEquals(200, reader.statusCode(), reader.body());
        assertEquals("reader", HttpAgent.json(reader).get("role").asText());
        assertTrue(HttpAgent.json(reader).get("tokenRequired").asBoolean());

        HttpResponse<String> admin = agent.get("/api/session", bearer(ADMIN));
        assertEquals(200, admin.statusCode(), admin.body());
        assertEquals("admin", HttpAgent.json(admin).get("role").asText());
    }

    @Test
    void sessionWithoutATokenIsRefused401() throws Exception {
        assertToldToSendABearerToken(agent.get("/api/session"));
    }

    @Test
    void sessionOnAnAgentWithoutTokensIsAdminAndNeedsNoToken() throws Exception {
        try (HttpAgent open = HttpAgent.start()) {
            JsonNode session = HttpAgent.json(open.get("/api/session"));
            assertEquals("admin", session.get("role").asText(), session.toString());
            assertFalse(session.get("tokenRequired").asBoolean(), session.toString());
        }
    }
}
