package org.salgate.transport.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * What the socket client's callers rely on when they read a TLS connection with their deadline as
 * the read timeout: the JDK's TLS socket stays usable after a read timed out part-way through a
 * record, and loses no byte. The agent's bytes reach the client a few at a time, through a relay,
 * while the client reads with a 1 ms timeout.
 */
@Timeout(120)
class TlsReadTimeoutTest {

    private static final int MESSAGES = 40;
    private static final int MAX_MESSAGE = 8_000;
    private static final int TRICKLE_BYTES = 97;

    @Test
    void aTls13SocketLosesNothingToReadsThatTimeOutInsideRecords() throws Exception {
        readThroughATrickle("TLSv1.3");
    }

    @Test
    void aTls12SocketLosesNothingToReadsThatTimeOutInsideRecords() throws Exception {
        readThroughATrickle("TLSv1.2");
    }

    private static void readThroughATrickle(String protocol) throws Exception {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("localhost"), 1);
        TlsConfig server = TlsConfig.server(identity);
        TlsConfig client = TlsConfig.clientTrusting(identity.chain(), "the test's own certificate");
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket tlsServer = server.serverSocket(loopback, 0, 10);
             ServerSocket relay = new ServerSocket(0, 10, loopback)) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> serve(tlsServer));
            Thread relaying = new Thread(() -> relay(relay, tlsServer.getLocalPort()), "trickle-relay");
            relaying.setDaemon(true);
            relaying.start();

            try (SSLSocket s = client.clientSocket(new Socket(loopback, relay.getLocalPort()), "localhost",
                    relay.getLocalPort())) {
                s.setEnabledProtocols(new String[] {protocol});
                s.setSoTimeout(30_000);
                s.startHandshake();
                assertEquals(protocol, s.getSession().getProtocol());
                s.setSoTimeout(1);
                long timeouts = readAll(s.getInputStream());
                assertTrue(timeouts > MESSAGES, "only " + timeouts + " reads timed out: the trickle was too fast to test");
            }
            served.get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads every message, checking each byte; returns how many reads timed out on the way. */
    private static long readAll(InputStream in) throws IOException {
        Random sizes = new Random(1);
        byte[] buffer = new byte[4096];
        long timeouts = 0;
        for (int i = 0; i < MESSAGES; i++) {
            int length = 1 + sizes.nextInt(MAX_MESSAGE);
            for (int at = 0; at < length; ) {
                int n;
                try {
                    n = in.read(buffer, 0, Math.min(buffer.length, length - at));
                } catch (SocketTimeoutException e) {
                    timeouts++;
                    continue;
                }
                if (n < 0) {
                    throw new EOFException("the stream ended in message " + i);
                }
                for (int k = 0; k < n; k++) {
                    assertEquals((byte) (i + at + k), buffer[k], "message " + i + ", byte " + (at + k));
                }
                at += n;
            }
        }
        return timeouts;
    }

    private static void serve(ServerSocket tlsServer) {
        try (Socket s = tlsServer.accept()) {
            OutputStream out = s.getOutputStream();
            Random sizes = new Random(1);
            for (int i = 0; i < MESSAGES; i++) {
                byte[] message = new byte[1 + sizes.nextInt(MAX_MESSAGE)];
                for (int j = 0; j < message.length; j++) {
                    message[j] = (byte) (i + j);
                }
                out.write(message);
                out.flush();
            }
            s.getInputStream().read(); // until the client closes
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** Passes the client's bytes on at once, and the server's a few at a time, a millisecond apart. */
    private static void relay(ServerSocket relay, int serverPort) {
        try (Socket fromClient = relay.accept();
             Socket toServer = new Socket(InetAddress.getLoopbackAddress(), serverPort)) {
            Thread up = new Thread(() -> copy(fromClient, toServer, 16_384, 0), "relay-up");
            up.setDaemon(true);
            up.start();
            copy(toServer, fromClient, TRICKLE_BYTES, 1);
        } catch (IOException e) {
            // the test ended
        }
    }

    private static void copy(Socket from, Socket to, int chunk, long pauseMillis) {
        byte[] buffer = new byte[chunk];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (IOException e) {
            // a side closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
