package org.salgate.transport.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.wire.Call;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.Reading;
import org.salgate.wire.Value;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;

@Timeout(30)
class SocketTransportTest {

    private final SocketTransportProvider provider = new SocketTransportProvider();
    private TransportServer server;
    private TransportClient client;
    private RecordingServerHandler serverHandler;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private RecordingServerHandler startServer(ServerOptions.Builder options) throws Exception {
        serverHandler = new RecordingServerHandler();
        server = provider.createServer(options.build());
        server.start(serverHandler);
        return serverHandler;
    }

    private void connect(RecordingClientHandler handler, int maxFrameBytes) throws Exception {
        client = provider.createClient(ClientOptions.builder().port(server.localAddress().getPort())
                .maxFrameBytes(maxFrameBytes).build());
        client.connect(handler);
        client.send(Hello.of(ProtobufCodec.NAME, "test"));
        assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void isFoundByName() {
        assertInstanceOf(SocketTransportProvider.class, Transports.byName("socket"));
    }

    @Test
    void requestGetsItsResponse() throws Exception {
        RecordingServerHandler serverHandler = startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.send(new Request(7, new Call.Echo(Value.of("ping"))));

        Message answer = clientHandler.received.poll(10, TimeUnit.SECONDS);
        assertEquals(new Response(7, new Result.Echoed(Value.of("ping"))), answer);
        assertInstanceOf(Hello.class, serverHandler.received.get(0));
    }

    @Test
    void slowClientMakesSessionUnwritableThenDrains() throws Exception {
        startServer(ServerOptions.builder().writeWaterMarks(64 * 1024, 128 * 1024));
        CountDownLatch release = new CountDownLatch(1);
        RecordingClientHandler clientHandler = new RecordingClientHandler() {
            @Override
            public void messageReceived(Message message) {
                super.messageReceived(message);
                if (message instanceof StreamData) {
                    awaitQuietly(release);
                }
            }
        };
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSessionOf();
        CountDownLatch writableAgain = new CountDownLatch(1);
        session.setWritabilityListener(writableAgain::countDown);

        byte[] payload = new byte[64 * 1024];
        int sent = 0;
        // The client blocks on the first frame, so the socket buffers fill and the queue grows.
        while (session.isWritable()) {
            session.send(new StreamData(1, Reading.ok("S", 0, sent, Value.of(payload))));
            sent++;
            assertTrue(sent < 10_000, "the session never became unwritable");
        }
        assertFalse(session.isWritable());

        release.countDown();
        assertTrue(writableAgain.await(20, TimeUnit.SECONDS));
        for (int i = 0; i < sent; i++) {
            Message m = clientHandler.received.poll(20, TimeUnit.SECONDS);
            assertEquals(i, ((StreamData) m).reading().sequence(), "frames arrive complete and in order");
        }
    }

    @Test
    void oversizedFrameFromClientClosesSessionWithCause() throws Exception {
        RecordingServerHandler serverHandler = startServer(ServerOptions.builder().maxFrameBytes(1024));
        try (Socket raw = new Socket("127.0.0.1", server.localAddress().getPort())) {
            DataOutputStream out = new DataOutputStream(raw.getOutputStream());
            out.writeInt(1025);
            out.flush();
            Throwable cause = serverHandler.closed.get(10, TimeUnit.SECONDS);
            assertInstanceOf(Framing.FrameTooLargeException.class, cause);
            assertEquals(-1, raw.getInputStream().read(), "the server closed the connection");
        }
    }

    @Test
    void oversizedFrameFromServerClosesClientWithCause() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, 1024);
        serverSessionOf().send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(new byte[4096]))));
        assertInstanceOf(Framing.FrameTooLargeException.class, clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertFalse(client.isOpen());
    }

    @Test
    void serverCloseFlushesThenClosesClients() throws Exception {
        RecordingServerHandler serverHandler = startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSessionOf();
        session.send(new StreamData(3, Reading.ok("S", 0, 0, Value.of(1.5))));

        server.close();

        assertNull(serverHandler.closed.get(10, TimeUnit.SECONDS));
        assertInstanceOf(StreamData.class, clientHandler.received.poll(10, TimeUnit.SECONDS));
        assertNull(clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertFalse(session.isOpen());
    }

    @Test
    void clientCloseIsSeenByServerWithoutCause() throws Exception {
        RecordingServerHandler serverHandler = startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        client.close();
        assertNull(clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertNull(serverHandler.closed.get(10, TimeUnit.SECONDS));
        assertThrowsIo(() -> client.send(new Request(1, new Call.ListProtocols())));
    }

    private Session serverSessionOf() throws InterruptedException {
        Session session = serverHandler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session, "the server saw no session");
        return session;
    }

    private interface IoAction {
        void run() throws Exception;
    }

    private static void assertThrowsIo(IoAction action) {
        try {
            action.run();
        } catch (java.io.IOException expected) {
            assertNotNull(expected.getMessage());
            return;
        } catch (Exception e) {
            throw new AssertionError("expected an IOException, got " + e, e);
        }
        throw new AssertionError("expected an IOException");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
