package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;

/**
 * The rules that keep the pages of the browsers on the agent's machine from driving it (issue 47),
 * against the agent jar with no tokens on loopback, as a user runs it: a WebSocket or a change from
 * another origin's page is refused, and so is a body a page can send cross-site unasked (text, a
 * form) and a request naming a host the agent does not serve (DNS rebinding). The agent's own pages,
 * the origin and host it was told to allow, and programs (no Origin) go on being served, and no
 * answer carries a CORS header.
 */
@Timeout(60)
class HttpBrowserRulesTest {

    private static final String ALLOWED_ORIGIN = "http://console.example:8443";
    private static final String ALLOWED_HOST = "gateway.example";
    private static final String PCML = "<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"planted\" type=\"dummy\" "
            + "endpoint=\"virtual\"><parameter name=\"sensors\" value=\"1\"/><parameter name=\"prefix\" value=\"PLANTED\"/>"
            + "</protocol></platform>";

    private static AgentProcess agent;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        agent = AgentProcess.start("http", 0, List.of(), List.of("--allow-origin", ALLOWED_ORIGIN,
                "--allow-host", ALLOWED_HOST));
        port = agent.port();
    }

    @AfterAll
    static void stop() throws Exception {
        agent.close();
    }

    private static String webSocketHandshake(String originLine) throws IOException {
        try (Socket socket = HttpAttacks.connect(port)) {
            socket.setSoTimeout(10_000);
            return HttpAttacks.webSocketHandshake(socket, port, originLine);
        }
    }

    private static String request(String method, String path, String headers, String body) throws IOException {
        return HttpAttacks.exchange(port, method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + headers + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
    }

    private static void assertStatus(int status, String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 " + status + " "), "expected " + status + ", got: " + answer);
    }

    private static void assertNoCorsHeader(String answer) {
        String head = answer.split("\r\n\r\n", 2)[0].toLowerCase(Locale.ROOT);
        assertFalse(head.contains("access-control-"), "a CORS header was sent: " + head);
    }

    private static int protocols() throws IOException {
        String answer = request("GET", "/api/protocols", "", "");
        assertStatus(200, answer);
        return answer.split("\"sensorCount\"", -1).length - 1;
    }

    @Test
    void webSocketsAreAcceptedFromTheAgentsOwnPagesAndTheAllowedOriginOnly() throws Exception {
        for (String foreign : List.of("http://evil.example", "null", "http://127.0.0.1:" + (port + 1),
                "https://127.0.0.1:" + port)) {
            String answer = HttpAttacks.exchange(port, "GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\nOrigin: " + foreign + "\r\n\r\n");
            assertStatus(403, answer);
            assertTrue(answer.contains("\"error\":\"FORBIDDEN_ORIGIN\""), answer);
            assertNoCorsHeader(answer);
        }
        for (String own : List.of("http://127.0.0.1:" + port, "http://localhost:" + port, ALLOWED_ORIGIN)) {
            assertTrue(webSocketHandshake("Origin: " + own + "\r\n").startsWith("HTTP/1.1 101"),
                    "a WebSocket from " + own + " was refused");
        }
        assertTrue(webSocketHandshake("").startsWith("HTTP/1.1 101"), "a WebSocket without Origin was refused");
    }

    @Test
    void changesFromAnotherOriginsPageAreRefused403AndNotMade() throws Exception {
        String json = "Content-Type: application/json\r\n";
        String xml = "Content-Type: application/xml\r\n";
        String removal = request("DELETE", "/api/sensors/DUMMY_3", "Origin: http://evil.example\r\n", "");
        assertStatus(403, removal);
        assertTrue(removal.contains("--allow-origin http://evil.example"), "the refusal must say what to do: " + removal);
        assertNoCorsHeader(removal);
        assertStatus(403, request("POST", "/api/protocols", "Origin: null\r\n" + xml, PCML));
        assertStatus(403, request("POST", "/api/sensors/DUMMY_0/commands/read", "Origin: http://evil.example\r\n"
                + json, "{}"));
        assertStatus(200, request("GET", "/api/sensors/DUMMY_3", "", ""));
        assertEquals(2, protocols(), "a refused change was made");
        assertNoCorsHeader(request("OPTIONS", "/api/protocols", "Origin: http://evil.example\r\n"
                + "Access-Control-Request-Method: POST\r\n", ""));

        assertStatus(200, request("POST", "/api/sensors/DUMMY_0/commands/read", "Origin: http://127.0.0.1:" + port
                + "\r\n" + json, "{}"));
        assertStatus(200, request("POST", "/api/sensors/DUMMY_0/commands/read", "Origin: " + ALLOWED_ORIGIN + "\r\n"
                + json, "{}"));
        try (SalClient client = SalClient.builder().transport("http").host("127.0.0.1").port(port)
                .clientName("program").connectTimeout(Duration.ofSeconds(10)).connect()) {
            assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the Java client was not served");
        }
    }

    @Test
    void aTextOrFormPostIsRefused415AndNotMade() throws Exception {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")) {
            String answer = request("POST", "/api/protocols", "Content-Type: " + type + "\r\n", PCML);
            assertStatus(415, answer);
            assertTrue(answer.contains("\"error\":\"UNSUPPORTED_MEDIA_TYPE\""), answer);
        }
        assertStatus(415, request("POST", "/api/protocols", "", PCML));
        assertEquals(2, protocols(), "a refused POST added a protocol");

        assertStatus(201, request("POST", "/api/protocols", "Content-Type: application/xml\r\n", PCML));
        assertStatus(204, request("DELETE", "/api/protocols/planted", "", ""));
    }

    @Test
    void requestsNamingAHostTheAgentDoesNotServeAreRefused421() throws Exception {
        for (String host : List.of("evil.example", "evil.example:" + port, "localhost.evil.example", "10.255.255.1")) {
            String answer = HttpAttacks.exchange(port, "GET /api/sensors HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n");
            assertStatus(421, answer);
            assertTrue(answer.contains("--allow-host"), "the refusal must say what to do: " + answer);
        }
        for (String host : List.of("127.0.0.1", "localhost:" + port, "LOCALHOST.", "[::1]:" + port, ALLOWED_HOST,
                ALLOWED_HOST + ":80")) {
            assertStatus(200, HttpAttacks.exchange(port, "GET /api/sensors HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n"));
        }
    }
}
