package org.salgate.transport.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/**
 * Bad input on the HTTP transport's own wire, each refused with a clear status or close code while
 * the agent keeps serving: the HTTP equivalents of the transport suite's raw-byte cases.
 */
@Timeout(60)
class HttpBadInputTest {

    private static final int MAX_FRAME_BYTES = 1024 * 1024;
    private static final long HEADER_TIMEOUT_MILLIS = 500;

    private HttpAgent agent;

    @BeforeEach
    void start() throws Exception {
        agent = HttpAgent.start(b -> b.serverOptions(o -> o.maxFrameBytes(MAX_FRAME_BYTES)
                .properties(Map.of(HttpTransportProvider.HEADER_TIMEOUT_MILLIS, Long.toString(HEADER_TIMEOUT_MILLIS)))));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private void assertServes() throws Exception {
        assertEquals(28, HttpAgent.json(agent.get("/api/sensors")).size(), "the agent stopped serving");
    }

    /** Sends bytes on a new connection and reads until the agent closes it; fails if it does not within 10 s. */
    private String exchange(byte[] bytes, long pauseMillis, byte[] more) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", agent.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
            if (more != null) {
                try {
                    out.write(more);
                    out.flush();
                } catch (SocketException closedAlready) {
                    // the agent answered and closed before these bytes: that is what is checked
                }
            }
            return readUntilClosed(socket.getInputStream());
        }
    }

    private static String readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                read.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // a reset after the answer is a close too
        }
        return read.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void malformedHttpIsAnswered400AndClosed() throws Exception {
        String answer = exchange(ascii("THIS IS NOT HTTP\r\n\r\n"), 0, null);
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertTrue(answer.contains("\"error\":\"MALFORMED_HTTP\""), answer);
        assertServes();
    }

    @Test
    void twoGigabyteContentLengthIsAnswered413BeforeAnyOfTheBody() throws Exception {
        String answer = exchange(ascii("POST /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/xml\r\n"
                + "Content-Length: 2147483648\r\n\r\n"), 0, null);
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("\"error\":\"TOO_LARGE\""), answer);
        assertServes();
    }

    @Test
    void chunkedBodyGrowingPastTheLimitIsAnswered413AndClosed() throws Exception {
        String chunk = Integer.toHexString(MAX_FRAME_BYTES / 2 + 1) + "\r\n" + "x".repeat(MAX_FRAME_BYTES / 2 + 1) + "\r\n";
        String answer = exchange(ascii("POST /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/xml\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + chunk), 200, ascii(chunk + "0\r\n\r\n"));
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("\"error\":\"TOO_LARGE\""), answer);
        assertServes();
    }

    @Test
    void headerFloodIsAnswered431AndClosed() throws Exception {
        StringBuilder request = new StringBuilder("GET /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (int i = 0; i < 2_000; i++) {
            request.append("X-Flood-").append(i).append(": ").append("y".repeat(20)).append("\r\n");
        }
        request.append("\r\n");
        String answer = exchange(ascii(request.toString()), 0, null);
        assertTrue(answer.startsWith("HTTP/1.1 431"), answer);
        assertTrue(answer.contains("\"error\":\"HEADERS_TOO_LARGE\""), answer);
        assertServes();
    }

    @Test
    void slowHeadersAreAnswered408AndClosed() throws Exception {
        long started = System.nanoTime();
        String answer = exchange(ascii("GET /api/sensors HTTP/1.1\r\nHost: 127.0.0.1\r\n"), HEADER_TIMEOUT_MILLIS * 4,
                ascii("X-Late: yes\r\n\r\n"));
        assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
        assertTrue(answer.contains("\"error\":\"REQUEST_TIMEOUT\""), answer);
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(HEADER_TIMEOUT_MILLIS));
        assertServes();
    }

    @Test
    void idleKeepAliveConnectionIsClosedWithoutAnAnswer() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", agent.port())) {
            socket.setSoTimeout(10_000);
            assertEquals("", readUntilClosed(socket.getInputStream()));
        }
        assertServes();
    }

    // ---------------------------------------------------------------- WebSocket

    /** Opens a WebSocket by hand on a raw socket and returns it after the 101 answer. */
    private Socket rawWebSocket() throws IOException {
        Socket socket = new Socket("127.0.0.1", agent.port());
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(ascii("GET " + HttpTransportProvider.WEBSOCKET_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n"));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head);
            }
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
        return socket;
    }

    @Test
    void webSocketMessageAnnouncedAboveTheLimitClosesTheConnectionBeforeItsBody() throws Exception {
        try (Socket socket = rawWebSocket()) {
            // FIN + binary, masked, 64-bit length of 2 GiB, a mask, and none of the body.
            ByteBuffer header = ByteBuffer.allocate(14);
            header.put((byte) 0x82).put((byte) (0x80 | 127)).putLong(1L << 31).putInt(0x01020304);
            socket.getOutputStream().write(header.array());
            socket.getOutputStream().flush();
            byte[] answer = readUntilClosed(socket.getInputStream()).getBytes(StandardCharsets.ISO_8859_1);
            assertTrue(answer.length >= 4 && (answer[0] & 0x0f) == 0x8, "expected a close frame");
            assertEquals(1009, ((answer[2] & 0xff) << 8) | (answer[3] & 0xff), "close code: message too big");
        }
        assertServes();
    }

    /** A java.net.http WebSocket that records how it ended. */
    private CompletableFuture<String> webSocketEnd(java.util.function.Consumer<WebSocket> send) throws Exception {
        CompletableFuture<String> ended = new CompletableFuture<>();
        WebSocket ws = agent.client().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(agent.uri(HttpTransportProvider.WEBSOCKET_PATH).resolve("ws://127.0.0.1:" + agent.port()
                        + HttpTransportProvider.WEBSOCKET_PATH), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        ended.complete("close " + statusCode);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket webSocket, Throwable error) {
                        ended.complete("error " + error);
                    }
                }).get(10, TimeUnit.SECONDS);
        send.accept(ws);
        return ended;
    }

    @Test
    void garbageInsteadOfAHelloClosesOnlyThatWebSocket() throws Exception {
        byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3};
        String end = webSocketEnd(ws -> ws.sendBinary(ByteBuffer.wrap(garbage), true)).get(10, TimeUnit.SECONDS);
        assertNotNull(end);
        assertServes();
    }

    @Test
    void textMessageClosesOnlyThatWebSocket() throws Exception {
        String end = webSocketEnd(ws -> ws.sendText("{\"hello\": true}", true)).get(10, TimeUnit.SECONDS);
        assertNotNull(end);
        assertServes();
    }

    @Test
    void clientRefusesAMessageFromTheAgentAboveItsLimit() throws Exception {
        ClientOptions options = ClientOptions.builder().port(agent.port()).maxFrameBytes(64 * 1024).build();
        TransportClient client = Transports.byName(HttpTransportProvider.NAME).createClient(options);
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        CompletableFuture<Message> answered = new CompletableFuture<>();
        client.connect(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                if (message instanceof org.salgate.wire.Response) {
                    answered.complete(message);
                }
            }

            @Override
            public void closed(Throwable cause) {
                closed.complete(cause);
            }
        });
        try {
            client.send(Hello.of(options.codec().name(), "small"));
            client.send(new Request(1, new Call.Execute("DUMMY_0", "payload", Map.of("size", "131072"))));
            Throwable cause = closed.get(10, TimeUnit.SECONDS);
            assertNotNull(cause, "an oversize message must close the client with a cause");
            assertTrue(!answered.isDone(), "the oversize answer was delivered");
        } finally {
            client.close();
        }
        assertServes();
    }
}
