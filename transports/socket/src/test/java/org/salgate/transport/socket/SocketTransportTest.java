package org.salgate.transport.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Reading;
import org.salgate.model.Value;
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

    /**
     * Answers sent on a session's reader thread leave from that thread, with no writer thread;
     * frames sent from other threads at the same time still leave whole and in order, beside them,
     * and a session never has more than one writer thread.
     */
    @Test
    void answersLeaveFromTheReaderAndFramesFromOtherThreadsInterleaveWholeAndInOrder() throws Exception {
        Set<Thread> earlier = writerThreads(Set.of()); // other tests' sessions, perhaps still ending
        startServer(ServerOptions.builder()); // answers on the calling thread: the session's reader
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSessionOf();
        BlockingQueue<Message> received = clientHandler.received;

        for (int i = 0; i < 50; i++) { // calls alone: every answer leaves from the reader
            client.send(new Request(i, new Call.Echo(Value.of(i))));
            assertEquals(new Response(i, new Result.Echoed(Value.of(i))), received.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(Set.of(), writerThreads(earlier), "no writer thread for answers sent on the reader");

        int calls = 2_000;
        int pushed = 5_000;
        Thread pusher = new Thread(() -> {
            for (int i = 0; i < pushed; i++) {
                session.send(new StreamData(7, Reading.ok("S", 0, i, Value.of(new byte[i % 700]))));
            }
        }, "pusher");
        pusher.start();
        for (int i = 0; i < calls; i++) {
            client.send(new Request(1_000 + i, new Call.Echo(Value.of("call " + i))));
        }
        pusher.join(30_000);

        List<Long> sequences = new ArrayList<>();
        List<Long> answered = new ArrayList<>();
        while (sequences.size() < pushed || answered.size() < calls) {
            Message m = received.poll(20, TimeUnit.SECONDS);
            assertNotNull(m, "got " + sequences.size() + " frames and " + answered.size() + " answers");
            if (m instanceof StreamData d) {
                assertEquals((int) d.reading().sequence() % 700, ((Value.Bytes) d.reading().value()).value().length);
                sequences.add(d.reading().sequence());
            } else {
                Response r = (Response) m;
                assertEquals(new Result.Echoed(Value.of("call " + (r.id() - 1_000))), r.result());
                answered.add(r.id());
            }
        }
        for (int i = 0; i < pushed; i++) {
            assertEquals(i, sequences.get(i), "pushed frames arrive whole and in order");
        }
        for (int i = 0; i < calls; i++) {
            assertEquals(1_000 + i, answered.get(i), "answers arrive in the order of their calls");
        }
        // The pushed frames went out from the writer, or from the reader when a drain it had started was
        // still under way as they were queued (it writes until the queue is empty): never from two writers.
        Set<Thread> writers = writerThreads(earlier);
        assertTrue(writers.size() <= 1, "at most one writer thread per session: " + writers);
    }

    /** The live writer threads of sessions, but those in {@code earlier}. */
    private static Set<Thread> writerThreads(Set<Thread> earlier) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !earlier.contains(t))
                .filter(t -> t.getName().startsWith("salgate-socket-write-")).collect(Collectors.toSet());
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
