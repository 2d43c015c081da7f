package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * An HTTP client (curl, a browser) pointed at a framed transport's port: its request line would be
 * read as a frame's length ("GET " is 1195725856 bytes). The server answers a minimal
 * {@code 400 Bad Request} saying which transport speaks HTTP, closes, and reports the session
 * closed with a cause that says so. A transport's test extends this class and implements
 * {@link #provider()}.
 */
public abstract class AbstractHttpOnBinaryPortTest {

    private static final String ADVICE = "this port speaks salgate's binary protocol; use --transport http for HTTP";

    private TckServerHandler handler;
    private TransportServer server;

    /** The framed transport under test. */
    protected abstract TransportProvider provider();

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
        if (handler != null) {
            handler.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GET / HTTP/1.1", "POST /api HTTP/1.1", "PUT /x HTTP/1.1", "HEAD / HTTP/1.1",
            "DELETE /x HTTP/1.1", "OPTIONS * HTTP/1.1", "PATCH /x HTTP/1.1", "CONNECT x:443 HTTP/1.1",
            "PRI * HTTP/2.0"})
    @Timeout(30)
    void anHttpRequestIsAnsweredBadRequestNamingTheHttpTransportAndClosed(String requestLine) throws Exception {
        handler = new TckServerHandler();
        server = provider().createServer(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.start(handler);

        String answer = exchange(server.localAddress(), requestLine + "\r\nHost: x\r\n\r\n");

        assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
        assertTrue(answer.contains("\r\nConnection: close\r\n"), answer);
        assertTrue(answer.endsWith("\r\n\r\n" + ADVICE + "\n"), answer);
        Optional<Throwable> cause = Await.result("the HTTP client's session to close", handler.sessionAt(0).closed());
        assertTrue(cause.isPresent(), "the session of an HTTP client must close with a cause");
        String method = requestLine.substring(0, requestLine.indexOf(' '));
        assertTrue(cause.get().getMessage().contains("an HTTP request (" + method + ")")
                && cause.get().getMessage().contains(ADVICE), cause.get().getMessage());
    }

    /** Sends {@code request} and reads what comes back until the server closes. */
    private static String exchange(InetSocketAddress address, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", address.getPort()), 5_000);
            socket.setSoTimeout((int) Await.DEFAULT.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[1024];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    answer.write(buffer, 0, n);
                }
            } catch (IOException reset) {
                // a reset after the answer still leaves the answer read
            }
            return answer.toString(StandardCharsets.US_ASCII);
        }
    }
}
