package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.rmi.RemoteException;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;
import java.util.stream.Stream;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;

@Timeout(60)
class RmiTransportTest {

    private final RmiTransportProvider provider = new RmiTransportProvider();
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

    private void startServer(ServerOptions.Builder options, RecordingServerHandler handler) throws Exception {
        serverHandler = handler;
        server = provider.createServer(options.build());
        server.start(serverHandler);
    }

    private void startServer(ServerOptions.Builder options) throws Exception {
        startServer(options, new RecordingServerHandler());
    }

    private void connect(RecordingClientHandler handler, int maxFrameBytes) throws Exception {
        client = provider.createClient(ClientOptions.builder().port(server.localAddress().getPort())
                .maxFrameBytes(maxFrameBytes).build());
        client.connect(handler);
        client.send(Hello.of(ProtobufCodec.NAME, "test"));
        assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
    }

    private Session serverSession() throws InterruptedException {
        Session session = serverHandler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session, "the server saw no session");
        return session;
    }

    @Test
    void isFoundByName() {
        assertInstanceOf(RmiTransportProvider.class, Transports.byName("rmi"));
    }

    @Test
    void requestGetsItsResponse() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.send(new Request(7, new Call.Echo(Value.of("ping"))));

        assertEquals(new Response(7, new Result.Echoed(Value.of("ping"))), clientHandler.received.poll(10, TimeUnit.SECONDS));
        assertInstanceOf(Hello.class, serverHandler.received.get(0));
        assertTrue(server.localAddress().getPort() > 0);
    }

    @Test
    void anAnswerReadyInTimeComesBackWithTheCallAndIsHandedOnByTheCaller() throws Exception {
        startServer(ServerOptions.builder());
        List<Thread> handedOnBy = new CopyOnWriteArrayList<>();
        RecordingClientHandler clientHandler = new RecordingClientHandler() {
            @Override
            public void messageReceived(Message message) {
                handedOnBy.add(Thread.currentThread());
                super.messageReceived(message);
            }
        };
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.send(new Request(3, new Call.Echo(Value.of("back"))));

        assertEquals(new Response(3, new Result.Echoed(Value.of("back"))), clientHandler.received.poll(),
                "the answer was handed on before send returned");
        assertEquals(List.of(Thread.currentThread(), Thread.currentThread()), handedOnBy,
                "the hello's reply and the answer came back with their calls");
    }

    @Test
    void framesSentRightAfterAnAnswerThatComesBackWithItsCallArriveAfterIt() throws Exception {
        startServer(ServerOptions.builder(), new RecordingServerHandler() {
            @Override
            public void messageReceived(Session session, Message message) {
                super.messageReceived(session, message); // answers at once
                if (message instanceof Request r) {
                    session.send(new StreamData(1, Reading.ok("S", 0, r.id(), Value.of(r.id()))));
                }
            }
        });
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        for (int i = 0; i < 300; i++) {
            client.send(new Request(i, new Call.Echo(Value.of(i))));
            assertEquals(new Response(i, new Result.Echoed(Value.of(i))), clientHandler.received.poll(10, TimeUnit.SECONDS));
            assertEquals(i, ((StreamData) clientHandler.received.poll(10, TimeUnit.SECONDS)).reading().sequence());
        }
    }

    @Test
    void pushedFramesAndAnswersArriveInTheOrderSent() throws Exception {
        startServer(ServerOptions.builder(), new RecordingServerHandler() {
            @Override
            public void messageReceived(Session session, Message message) {
                if (message instanceof Request r) {
                    for (int i = 0; i < 20; i++) {
                        session.send(new StreamData(1, Reading.ok("S", 0, i, Value.of(i))));
                    }
                }
                super.messageReceived(session, message);
                if (message instanceof Request) {
                    session.send(new StreamData(1, Reading.ok("S", 0, 20, Value.of(20))));
                }
            }
        });
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.send(new Request(1, new Call.Echo(Value.of("x"))));

        for (int i = 0; i < 20; i++) {
            Message m = clientHandler.received.poll(10, TimeUnit.SECONDS);
            assertEquals(i, ((StreamData) m).reading().sequence());
        }
        assertInstanceOf(Response.class, clientHandler.received.poll(10, TimeUnit.SECONDS));
        assertEquals(20, ((StreamData) clientHandler.received.poll(10, TimeUnit.SECONDS)).reading().sequence());
    }

    @Test
    void burstOfSmallFramesArrivesCompleteAndInOrder() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSession();
        int frames = 5_000; // far more than one push carries
        for (int i = 0; i < frames; i++) {
            session.send(new StreamData(1, Reading.ok("S", 0, i, Value.of(i))));
        }
        for (int i = 0; i < frames; i++) {
            Message m = clientHandler.received.poll(10, TimeUnit.SECONDS);
            assertEquals(i, ((StreamData) m).reading().sequence());
        }
        assertTrue(session.isOpen());
    }

    @Test
    void anAnswerSentAfterTheCallReturnedIsPushed() throws Exception {
        CompletableFuture<Session> asked = new CompletableFuture<>();
        startServer(ServerOptions.builder(),
                new RecordingServerHandler() {
                    @Override
                    public void messageReceived(Session session, Message message) {
                        if (message instanceof Request) {
                            asked.complete(session); // answered later, by the test
                        } else {
                            super.messageReceived(session, message);
                        }
                    }
                });
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.send(new Request(5, new Call.ListProtocols())); // returns once the call stops waiting
        asked.get(10, TimeUnit.SECONDS).send(new Response(5, new Result.Document("late")));

        assertEquals(new Response(5, new Result.Document("late")), clientHandler.received.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void handlerMaySendFromInsideItsCallback() throws Exception {
        startServer(ServerOptions.builder());
        CompletableFuture<Message> answer = new CompletableFuture<>();
        RecordingClientHandler clientHandler = new RecordingClientHandler() {
            @Override
            public void messageReceived(Message message) {
                super.messageReceived(message);
                if (message instanceof StreamData) {
                    try {
                        client.send(new Request(9, new Call.Echo(Value.of("inside"))));
                    } catch (IOException e) {
                        answer.completeExceptionally(e);
                    }
                } else if (message instanceof Response) {
                    answer.complete(message);
                }
            }
        };
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        serverSession().send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(1))));

        assertEquals(new Response(9, new Result.Echoed(Value.of("inside"))), answer.get(20, TimeUnit.SECONDS));
    }

    @Test
    void slowClientMakesSessionUnwritableThenDrains() throws Exception {
        startServer(ServerOptions.builder().writeWaterMarks(64 * 1024, 128 * 1024));
        CountDownLatch release = new CountDownLatch(1);
        RecordingClientHandler clientHandler = holdingPushedFrames(release, new CopyOnWriteArrayList<>());
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSession();
        CountDownLatch writableAgain = new CountDownLatch(1);
        session.setWritabilityListener(writableAgain::countDown);

        byte[] payload = new byte[16 * 1024];
        int sent = 0;
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
    void aHandlerHoldingAPushedFrameDoesNotHoldUpSend() throws Exception {
        startServer(ServerOptions.builder());
        CountDownLatch release = new CountDownLatch(1);
        RecordingClientHandler clientHandler = holdingPushedFrames(release, new CopyOnWriteArrayList<>());
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        serverSession().send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(1))));
        assertInstanceOf(StreamData.class, clientHandler.received.poll(10, TimeUnit.SECONDS)); // held there now
        try {
            long start = System.nanoTime();
            client.send(new Request(2, new Call.Echo(Value.of("not held"))));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 5_000, "send waited " + millis + " ms for the handler of a pushed frame");
        } finally {
            release.countDown();
        }
        assertEquals(new Response(2, new Result.Echoed(Value.of("not held"))),
                clientHandler.received.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void aCloseWhileAPushedFrameIsHandedOnIsReportedAfterIt() throws Exception {
        startServer(ServerOptions.builder());
        CountDownLatch release = new CountDownLatch(1);
        List<String> events = new CopyOnWriteArrayList<>();
        RecordingClientHandler clientHandler = holdingPushedFrames(release, events);
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        serverSession().send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(1))));
        assertInstanceOf(StreamData.class, clientHandler.received.poll(10, TimeUnit.SECONDS)); // held there now

        client.close();

        assertFalse(clientHandler.closed.isDone(), "the close was reported while a frame was handed on");
        release.countDown();
        assertNull(clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("frame", "frame done", "closed"), events);
    }

    @Test
    void oversizedFrameFromClientClosesSessionWithCause() throws Exception {
        startServer(ServerOptions.builder().maxFrameBytes(1024));
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        assertThrows(IOException.class, () -> client.send(new Request(1, new Call.Echo(Value.of(new byte[4096])))));

        assertInstanceOf(Framing.FrameTooLargeException.class, serverHandler.closed.get(10, TimeUnit.SECONDS));
        clientHandler.closed.get(10, TimeUnit.SECONDS);
        assertFalse(client.isOpen());
    }

    @Test
    void oversizedFrameFromServerClosesClientWithCause() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, 1024);

        Session session = serverSession();
        session.send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(new byte[4096]))));

        assertInstanceOf(Framing.FrameTooLargeException.class, clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertFalse(client.isOpen());
        serverHandler.closed.get(10, TimeUnit.SECONDS); // the client left (or the refused push failed)
        assertFalse(session.isOpen());
    }

    /**
     * The conformance suite sends malformed bytes over a raw socket, which RMI does not carry; its
     * frames are byte arrays handed to {@link SessionRemote#call}. These are the suite's cases as a
     * client of the remote interface can send them.
     */
    static Stream<Arguments> malformedFrames() {
        byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3};
        byte[] requestFirst = new ConnectionCodec(Codecs.defaultCodec()).encode(new Request(1, new Call.ListProtocols()));
        return Stream.of(
                Arguments.of("garbage instead of a hello", false, garbage),
                Arguments.of("garbage after the hello", true, garbage),
                Arguments.of("a request before the hello", false, requestFirst),
                Arguments.of("an empty frame", true, new byte[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedFrames")
    void malformedFrameClosesOnlyThatSession(String what, boolean helloFirst, byte[] frame) throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler good = new RecordingClientHandler();
        connect(good, Framing.DEFAULT_MAX_FRAME_BYTES);
        serverSession();

        SessionRemote rogue = openRaw();
        byte[] hello = new ConnectionCodec(Codecs.defaultCodec()).encode(Hello.of(ProtobufCodec.NAME, "rogue"));
        if (helloFirst) {
            rogue.call(hello, true);
        }
        RemoteException refused = assertThrows(RemoteException.class, () -> rogue.call(frame, true));
        assertTrue(refused.getMessage().contains("the session is closed"), "the refusal says why: " + refused);
        assertNotNull(serverHandler.closed.get(10, TimeUnit.SECONDS), what + " must close the session with a cause");
        assertThrows(RemoteException.class, () -> rogue.call(hello, true), "the session stays closed");

        client.send(new Request(9, new Call.Echo(Value.of("still served"))));
        assertEquals(new Response(9, new Result.Echoed(Value.of("still served"))), good.received.poll(10, TimeUnit.SECONDS),
                "the other client is still served after " + what);
    }

    /** A session opened through the remote interface alone, as a client that never polls it. */
    private SessionRemote openRaw() throws Exception {
        return AgentPorts.openSession(server.localAddress().getPort());
    }

    @Test
    void aVanishedClientThatStopsPollingIsDetectedAtTheReadTimeout() throws Exception {
        startServer(ServerOptions.builder().limits(ServerOptions.Limits.DEFAULTS.withHelloTimeout(Duration.ofSeconds(1))));
        // The client disappears without a word after its hello: it never polls for what the agent sends.
        SessionRemote vanished = openRaw();
        vanished.call(new ConnectionCodec(Codecs.defaultCodec()).encode(Hello.of(ProtobufCodec.NAME, "gone")), true);
        Session session = serverSession();

        session.send(new StreamData(1, Reading.ok("S", 0, 0, Value.of(1))));

        Throwable cause = serverHandler.closed.get(10, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, cause);
        assertTrue(cause.getMessage().contains("did not poll"), cause.getMessage());
        assertFalse(session.isOpen());
        assertEquals(0, session.queuedBytes(), "what was queued for it was given back");
    }

    @Test
    void serverCloseFlushesThenClosesClients() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        Session session = serverSession();
        session.send(new StreamData(3, Reading.ok("S", 0, 0, Value.of(1.5))));

        server.close();

        assertNull(serverHandler.closed.get(10, TimeUnit.SECONDS));
        assertInstanceOf(StreamData.class, clientHandler.received.poll(10, TimeUnit.SECONDS));
        assertNull(clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertFalse(client.isOpen());
    }

    @Test
    void clientCloseIsSeenByServerWithoutCause() throws Exception {
        startServer(ServerOptions.builder());
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);

        client.close();

        assertNull(clientHandler.closed.get(10, TimeUnit.SECONDS));
        assertNull(serverHandler.closed.get(10, TimeUnit.SECONDS));
        assertThrows(IOException.class, () -> client.send(new Request(1, new Call.ListProtocols())));
    }

    @Test
    void theAgentAndItsSessionsShareOneListeningPort() throws Exception {
        startServer(ServerOptions.builder());
        connect(new RecordingClientHandler(), Framing.DEFAULT_MAX_FRAME_BYTES);
        var field = RmiTransportServer.class.getDeclaredField("serverSockets");
        field.setAccessible(true);
        RmiServerSocketFactory sockets = (RmiServerSocketFactory) field.get(server);
        assertEquals(1, sockets.listeningSockets(), "one listening socket for the agent and its session");
        assertEquals(server.localAddress().getPort(), sockets.lastPort());
    }

    @Test
    void restartsOnTheSamePortAfterClose() throws Exception {
        startServer(ServerOptions.builder());
        int port = server.localAddress().getPort();
        server.close();

        startServer(ServerOptions.builder().port(port));
        RecordingClientHandler clientHandler = new RecordingClientHandler();
        connect(clientHandler, Framing.DEFAULT_MAX_FRAME_BYTES);
        assertEquals(port, server.localAddress().getPort());
    }

    @Test
    void unreachableAgentGivesClearError() {
        TransportClient c = provider.createClient(ClientOptions.builder().port(1).build());
        IOException e = assertThrows(IOException.class, () -> c.connect(new RecordingClientHandler()));
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }

    /** A client handler that holds each pushed StreamData until {@code release}, noting in {@code events} what it saw. */
    private static RecordingClientHandler holdingPushedFrames(CountDownLatch release, List<String> events) {
        return new RecordingClientHandler() {
            @Override
            public void messageReceived(Message message) {
                super.messageReceived(message);
                if (message instanceof StreamData) {
                    events.add("frame");
                    awaitQuietly(release);
                    events.add("frame done");
                }
            }

            @Override
            public void closed(Throwable cause) {
                events.add("closed");
                super.closed(cause);
            }
        };
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
