package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests whose framing a proxy in front of the agent might read differently from it (request
 * smuggling), or that are not the HTTP the agent speaks (issue 47): each is answered 400 or 505 and
 * the connection closed, and nothing sent behind it is served. Against the agent jar, on loopback.
 */
@Timeout(60)
class HttpMalformedFramingTest {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 \\d{3} ");

    private static AgentProcess agent;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        agent = AgentProcess.start("http", 0, List.of(), List.of());
        port = agent.port();
    }

    @AfterAll
    static void stop() throws Exception {
        agent.close();
    }

    /** Sends {@code request} followed by a GET that must not be served; checks the one answer and the close. */
    private static String refusedAndClosed(String request, int status) throws Exception {
        String answer = HttpAttacks.exchange(port, request + "GET /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 " + status + " "), "expected " + status + ", got: " + answer);
        assertEquals(1, STATUS_LINE.matcher(answer).results().count(), "a request behind a refused one was served: "
                + answer);
        assertFalse(answer.contains("<still open"), "the connection stayed open: " + answer);
        return answer;
    }

    @Test
    void twoTransferEncodingsOrOneWithAContentLengthAreRefused400AndNothingBehindThemIsServed() throws Exception {
        String post = "POST /api/sensors/DUMMY_0/commands/read HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\n";
        String answer = refusedAndClosed(post + "Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\n", 400);
        assertTrue(answer.contains("Transfer-Encoding"), "the answer must say what was wrong: " + answer);
        refusedAndClosed(post + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400);
        refusedAndClosed(post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 400);
    }

    @Test
    void anHttp11RequestWithoutAHostOrWithTwoIsRefused400() throws Exception {
        String missing = refusedAndClosed("GET /api/sensors HTTP/1.1\r\n\r\n", 400);
        assertTrue(missing.contains("Host"), "the answer must say what was wrong: " + missing);
        refusedAndClosed("GET /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", 400);
    }

    @Test
    void anUnknownHttpVersionIsRefused505() throws Exception {
        String answer = refusedAndClosed("GET /api/sensors HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 505);
        assertTrue(answer.contains("HTTP/9.9"), "the answer must name the version: " + answer);
    }
}
