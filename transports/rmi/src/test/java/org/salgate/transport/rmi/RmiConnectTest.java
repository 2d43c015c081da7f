package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.testing.RecordingClientHandler;

/** What connecting says and how long it takes when the address holds no RMI agent. */
@Timeout(30)
class RmiConnectTest {

    private ServerSocket listener;
    private final List<Socket> accepted = new ArrayList<>();

    @AfterEach
    void tearDown() throws IOException {
        for (Socket s : accepted) {
            s.close();
        }
        listener.close();
    }

    /** A listener that accepts and then, per connection, runs {@code onAccept}. */
    private int listen(SocketAction onAccept) throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    accepted.add(s);
                    onAccept.run(s);
                } catch (IOException e) {
                    return;
                }
            }
        }, "test-listener");
        t.setDaemon(true);
        t.start();
        return listener.getLocalPort();
    }

    private interface SocketAction {
        void run(Socket s) throws IOException;
    }

    private static IOException connect(int port, Duration timeout) {
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder()
                .host("127.0.0.1").port(port).connectTimeout(timeout).build());
        return assertThrows(IOException.class, () -> client.connect(new RecordingClientHandler()));
    }

    @Test
    void aListenerThatSaysNothingFailsWithinTheConnectTimeout() throws IOException {
        int port = listen(s -> { });
        long start = System.nanoTime();
        IOException e = connect(port, Duration.ofMillis(500));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs < 5_000, "took " + tookMs + " ms with a 500 ms timeout");
        assertTrue(e.getMessage().contains("no RMI agent answered at 127.0.0.1:" + port + " within 500 ms"),
                e.getMessage());
    }

    @Test
    void aServerThatIsNotRmiIsNamedSoNotNull() throws IOException {
        // as a framed (netty, mina, xsocket, socket) agent does: read a bad frame header and close
        int port = listen(s -> {
            InputStream in = s.getInputStream();
            in.readNBytes(4);
            s.close();
        });
        IOException e = connect(port, Duration.ofSeconds(5));
        assertTrue(e.getMessage().contains("is not a salgate RMI agent"), e.getMessage());
        assertFalse(e.getMessage().contains("null"), e.getMessage());
    }
}
