package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * A connection to the agent's port that never completes a call is closed after the hello timeout
 * (RMI alone would wait two hours), and a client idle longer than that is still served: RMI opens
 * a new connection for the next call.
 */
@Timeout(60)
class SilentConnectionTest {

    private static final Duration HELLO_TIMEOUT = Duration.ofMillis(500);
    /** How much later than the hello timeout the agent may close: a loaded machine's scheduling. */
    private static final long MARGIN_MILLIS = 3_000;

    private TransportServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private int start() throws IOException {
        server = new RmiTransportProvider().createServer(ServerOptions.builder().helloTimeout(HELLO_TIMEOUT).build());
        server.start(new RecordingServerHandler());
        return server.localAddress().getPort();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"says nothing", "stops within the bootstrap", "stops after the RMI handshake"})
    void aConnectionThatNeverCompletesACallIsClosedAfterTheHelloTimeout(String what) throws Exception {
        int port = start();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) (HELLO_TIMEOUT.toMillis() + 2 * MARGIN_MILLIS));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            if (what.endsWith("RMI handshake")) {
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeInt(0x4a524d49);
                out.writeShort(2);
                out.writeByte(0x4b);
                out.flush();
                assertEquals(0x4e, in.readUnsignedByte());
                in.readUTF();
                in.readInt();
                out.writeUTF("127.0.0.1");
                out.writeInt(0);
                out.flush();
            }
            if (what.endsWith("bootstrap")) {
                socket.getOutputStream().write(AgentConnection.BOOTSTRAP, 0, AgentConnection.BOOTSTRAP.length - 1);
                socket.getOutputStream().flush();
            }
            long start = System.nanoTime();
            int read;
            try {
                read = in.read();
            } catch (SocketException reset) {
                read = -1;
            }
            long millis = (System.nanoTime() - start) / 1_000_000;

            assertEquals(-1, read, "the agent sent something");
            assertTrue(millis >= HELLO_TIMEOUT.toMillis() - 100, "closed after " + millis + " ms, before the timeout");
            assertTrue(millis <= HELLO_TIMEOUT.toMillis() + MARGIN_MILLIS, "closed only after " + millis + " ms");
        }
    }

    @Test
    void aClientIdleLongerThanTheHelloTimeoutIsStillServed() throws Exception {
        int port = start();
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder().port(port).build());
        try {
            RecordingClientHandler handler = new RecordingClientHandler();
            client.connect(handler);
            client.send(Hello.of(ProtobufCodec.NAME, "idle"));
            assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));

            Thread.sleep(3 * HELLO_TIMEOUT.toMillis()); // the agent closes the pooled connection meanwhile

            client.send(new Request(1, new Call.Echo(Value.of("still there"))));
            assertEquals(new Response(1, new Result.Echoed(Value.of("still there"))),
                    handler.received.poll(10, TimeUnit.SECONDS));
            assertTrue(client.isOpen());
        } finally {
            client.close();
        }
    }
}
