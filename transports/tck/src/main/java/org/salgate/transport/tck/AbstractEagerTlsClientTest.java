package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;

/**
 * A byte-stream transport over TLS, against clients that send their hello in the same TCP write
 * as their last handshake record ({@link EagerTlsClient}): the server reads the hello that came
 * with the end of the handshake and answers it, every time. A client's handshake ends on its own
 * record under TLS 1.3 and when a TLS 1.2 session is resumed. The test fails if no handshake
 * ended so, as it would then check nothing: xSocket has no subclass, since it speaks TLS 1.2 only
 * and resumed none of 20 sessions here, so its handshakes end on the server's record.
 */
public abstract class AbstractEagerTlsClientTest {

    private static final int CONNECTIONS = 20;
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    private TckServerHandler handler;
    private TransportServer server;

    /** The transport under test. */
    protected abstract TransportProvider provider();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (handler != null) {
            handler.close();
        }
    }

    @Test
    @Timeout(120)
    void aHelloSentWithTheLastHandshakeRecordIsAnswered() throws Exception {
        handler = new TckServerHandler();
        server = provider().createServer(ServerOptions.builder().host("127.0.0.1").port(0)
                .tls(TestPki.shared().serverTls()).build());
        server.start(handler);
        ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        int eager = 0;
        String protocol = null;
        for (int i = 0; i < CONNECTIONS; i++) {
            byte[] body = codec.encode(Hello.of(Codecs.defaultCodec().name(), "eager-" + i));
            byte[] hello = ByteBuffer.allocate(Integer.BYTES + body.length).putInt(body.length).put(body).array();
            try (EagerTlsClient client = EagerTlsClient.connect(server.localAddress(), TestPki.shared().clientTls(),
                    hello, PROMPTLY)) {
                protocol = client.protocol();
                if (client.sentFrameWithHandshakeEnd()) {
                    eager++;
                }
                byte[] answer;
                try {
                    answer = client.readFrame();
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("connection " + (i + 1) + " (" + protocol + (client.sentFrameWithHandshakeEnd()
                            ? ", hello sent with the last handshake record" : ", hello sent after the handshake")
                            + "): no answer to the hello within " + PROMPTLY.toMillis() + " ms", e);
                }
                assertEquals(HelloReply.accept(TckServerHandler.SERVER_ID), codec.decode(answer));
            } catch (IOException e) {
                throw new AssertionError("connection " + (i + 1) + " failed: " + e, e);
            }
        }
        assertTrue(eager > 0, "no handshake (" + protocol + ") ended on the client's record, so no hello travelled"
                + " with it: the test checked nothing");
    }
}
