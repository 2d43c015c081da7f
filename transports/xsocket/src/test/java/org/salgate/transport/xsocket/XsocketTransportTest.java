package org.salgate.transport.xsocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.tck.Await;
import org.salgate.transport.tck.StreamCheck;
import org.salgate.transport.tck.TckClient;
import org.salgate.transport.tck.TckServerHandler;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.transport.xsocket.XsocketServer.XsocketSession;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;
import org.xsocket.connection.IConnection;

@Timeout(30)
/**
 * What only xSocket needs beyond the shared conformance suite (transports/tck), which covers round
 * trips, backpressure, oversize and malformed frames, and the life cycle for every transport.
 */
class XsocketTransportTest {

    private static final long WAIT_SECONDS = 10;
    private static final long FLOOD_WAIT_SECONDS = 60;

    private final TransportProvider provider = new XsocketTransportProvider();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void clientReceivesFramesLargerThanXsocketReadsAtOnce() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        ClientRecorder client = new ClientRecorder();
        TransportClient c = connect(s, client);
        c.send(Hello.of("protobuf", "big"));
        assertInstanceOf(HelloReply.class, client.next());
        byte[] big = new byte[300 * 1024];
        big[big.length - 1] = 42;
        for (int i = 0; i < 3; i++) {
            c.send(new Request(i, new Call.Echo(Value.of(big))));
        }
        for (int i = 0; i < 3; i++) {
            Response r = assertInstanceOf(Response.class, client.next());
            assertEquals(i, r.id());
            assertEquals(new Result.Echoed(Value.of(big)), r.result());
        }
    }

    /**
     * An agent that closes right behind a burst: the client, which suspends receiving while it
     * delivers, still delivers every frame of the burst, in order, before the close. (xSocket keeps
     * what it read before the end in its read buffer, and while receiving was suspended no data
     * callback had taken it: the close was once delivered without it.)
     */
    @Test
    @Timeout(120)
    void burstSentJustBeforeTheAgentClosesReachesTheClientBeforeTheClose() throws Exception {
        int connections = 40;
        int frames = 200;
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        for (int round = 0; round < connections; round++) {
            ClientRecorder client = new ClientRecorder();
            TransportClient c = connect(s, client);
            c.send(Hello.of("protobuf", "closed on " + round));
            assertInstanceOf(HelloReply.class, client.next());
            Session session = server.opened.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(session, "no session opened");

            for (int i = 0; i < frames; i++) {
                session.send(new Response(i, new Result.Echoed(Value.of(new byte[2000]))));
            }
            session.close();
            for (int i = 0; i < frames; i++) {
                Response r = assertInstanceOf(Response.class, client.next(), "connection " + round + ", frame " + i);
                assertEquals(i, r.id(), "frames out of order");
            }
            assertTrue(client.closedLatch.await(WAIT_SECONDS, TimeUnit.SECONDS), "the close was not reported");
            assertEquals(1, client.closedCount.get());
            assertEquals(0, client.messages.size(), "a message after the burst");
        }
    }

    /**
     * A client whose handler is slower than xSocket reads keeps suspending and resuming receiving;
     * the frames and the answer behind them must still all come through.
     */
    @Test
    @Timeout(180)
    void answerBehindAFloodOfSmallFramesReachesASlowClient() throws Exception {
        int frames = 500_000;
        Flooder server = new Flooder(frames);
        TransportServer s = start(ServerOptions.builder().build(), server);
        FloodCounter client = new FloodCounter();
        TransportClient c = connect(s, client);
        c.send(Hello.of("protobuf", "flood"));
        c.send(new Request(7, new Call.Echo(Value.of("after the flood"))));
        Response r = client.response.poll(150, TimeUnit.SECONDS);
        assertNotNull(r, "the answer never came; " + client.frames.get() + " of " + frames + " frames arrived");
        assertEquals(new Result.Echoed(Value.of("after the flood")), r.result());
        assertEquals(frames, client.frames.get());
    }

    /**
     * A hundred clients in one JVM each read a stream of 20 KB readings as fast as they can, then
     * ask for an echo, which waits behind the frames already queued for them: every one of them is
     * answered within the deadline. (When each data callback suspended and resumed receiving,
     * xSocket's client dispatcher ran those updates without end and never got back to its
     * selector, so a connection its last read found empty was not read again: most answers never
     * came, as the bench's "stop stream" calls at 100 clients did not.)
     */
    @Test
    @Timeout(240)
    void everyOneOfAHundredStreamingClientsIsAnsweredBehindItsStream() throws Exception {
        int clients = 100;
        Duration within = Duration.ofSeconds(60);
        TckServerHandler handler = new TckServerHandler();
        toClose.add(handler);
        TransportServer s = start(ServerOptions.builder().build(), handler);
        List<TckClient> streaming = new ArrayList<>();
        List<StreamCheck> streams = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            TckClient client = new TckClient("streamer-" + i, provider.createClient(ClientOptions.builder()
                    .port(s.localAddress().getPort()).connectTimeout(within).build()), "protobuf", false);
            toClose.add(client);
            streaming.add(client.connect(within));
            streams.add(client.startStream(Long.MAX_VALUE, 20 * 1024));
        }
        Await.until(() -> "every stream to flow: " + streams, within,
                () -> streams.stream().allMatch(stream -> stream.received() > 0));
        List<CompletableFuture<Result>> answers = new ArrayList<>();
        for (TckClient client : streaming) {
            answers.add(client.request(new Call.Echo(Value.of("behind the stream"))));
        }
        long deadline = System.nanoTime() + within.toNanos();
        List<String> unanswered = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            try {
                answers.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                unanswered.add(streaming.get(i) + " after " + streams.get(i).received() + " frames");
            }
        }
        assertTrue(unanswered.isEmpty(), unanswered.size() + " of " + clients + " streaming clients got no answer"
                + " within " + within.toSeconds() + " s: " + unanswered);
        for (StreamCheck stream : streams) {
            assertNull(stream.violation(), stream.toString());
        }
    }

    /**
     * Low water marks make the session turn unwritable and writable again over and over while a client
     * pipelines requests and reads the answers; every answer arrives, in order.
     */
    @Test
    @Timeout(120)
    void pipelinedFloodOfRequestsIsAnsweredInOrder() throws Exception {
        int requests = 200_000;
        TransportServer server = start(ServerOptions.builder().writeWaterMarks(2048, 4096).build(),
                new Recorder(true));
        RawClient client = connectRaw(server);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                client.write(Hello.of("protobuf", "pipeliner"));
                for (int i = 0; i < requests; i++) {
                    client.write(new Request(i, new Call.Echo(Value.of(i))));
                }
                client.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertInstanceOf(HelloReply.class, client.read());
        for (int i = 0; i < requests; i++) {
            Response r = assertInstanceOf(Response.class, client.read());
            assertEquals(i, r.id(), "answers out of order");
            assertEquals(new Result.Echoed(Value.of((long) i)), r.result());
        }
        writer.get(FLOOD_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * A client that does not read makes the session unwritable once the high-water mark is reached,
     * counting the frames the session holds back while a write is on its way; when the client
     * reads, the listener runs and every frame arrives whole and in order.
     */
    @Test
    @Timeout(120)
    void burstToALateReaderStopsAtTheHighWaterMarkAndArrivesInOrder() throws Exception {
        int high = 64 * 1024;
        Recorder handler = new Recorder(true);
        TransportServer server = start(ServerOptions.builder().writeWaterMarks(16 * 1024, high).build(), handler);
        RawClient client = connectRaw(server);
        client.write(Hello.of("protobuf", "late reader"));
        client.flush();
        XsocketSession session = (XsocketSession) handler.opened.poll(FLOOD_WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(session, "no session opened");
        assertInstanceOf(HelloReply.class, client.read());
        CountDownLatch writableAgain = new CountDownLatch(1);
        session.setWritabilityListener(writableAgain::countDown);

        int sent = 0;
        // Loopback socket buffers take a few MB before anything stays pending.
        while (session.isWritable() && sent < 20_000_000) {
            session.send(reading(sent));
            sent++;
        }
        assertFalse(session.isWritable(), "still writable after " + sent + " frames");
        // A reading's varints grow with its number, so the frame that crossed the mark is the largest.
        int lastFrameBytes = Framing.frameBytes(new ConnectionCodec(Codecs.defaultCodec()).encode(reading(sent - 1)));
        assertTrue(session.queuedBytes() < high + lastFrameBytes, session.queuedBytes()
                + " bytes pending, past the high-water mark by more than the last frame (" + lastFrameBytes + " B)");

        for (int i = 0; i < sent; i++) {
            StreamData data = assertInstanceOf(StreamData.class, client.read());
            assertEquals(i, data.reading().sequence(), "frames out of order");
        }
        assertTrue(writableAgain.await(FLOOD_WAIT_SECONDS, TimeUnit.SECONDS), "the writability listener never ran");
        assertTrue(session.isWritable());
        session.send(new Response(1, new Result.Echoed(Value.of("after"))));
        assertEquals(new Response(1, new Result.Echoed(Value.of("after"))), client.read());
    }

    /**
     * Over TLS xSocket encrypts what it is given into records of at most 16 KiB, each queued as its
     * own buffer for the socket. A peer that reads slowly, behind a small send buffer, keeps the
     * socket full, so writes keep ending part-way through; every frame must still arrive, whole and
     * in order, however the writes were cut. (Handing xSocket many records at once stranded the
     * tail of a write here in every run.)
     */
    @Test
    @Timeout(120)
    void burstOverTlsToASlowReaderArrivesWholeAndInOrder() throws Exception {
        int frames = 4096;
        byte[] payload = new byte[2048];
        new Random(7).nextBytes(payload);
        LoopbackTls tls = LoopbackTls.create();
        Recorder handler = new Recorder(true);
        TransportServer server = start(ServerOptions.builder().host("127.0.0.1").port(0)
                .tls(tls.server()).build(), handler);
        RawClient client = new RawClient(server.localAddress(), tls.client());
        Session session = openBehindASmallSendBuffer(handler, client, "slow tls reader");

        Semaphore writable = new Semaphore(0);
        session.setWritabilityListener(writable::release);
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < frames && session.isOpen(); i++) {
                    while (!session.isWritable() && session.isOpen()) {
                        writable.tryAcquire(10, TimeUnit.MILLISECONDS);
                    }
                    session.send(new Response(i, new Result.Echoed(Value.of(payload))));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 0; i < frames; i++) {
            Response response = assertInstanceOf(Response.class, client.read(), "frame " + i);
            assertEquals(i, response.id(), "frames out of order");
            assertEquals(new Result.Echoed(Value.of(payload)), response.result());
            if (i % 16 == 15) {
                Thread.sleep(1);
            }
        }
        sender.get(FLOOD_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * A session closed with frames still queued behind a write on its way: everything sent before
     * the close reaches a slow reader, whole and in order, and then the connection ends. (The close
     * once handed xSocket the rest as one buffer behind the write on its way, which over TLS it
     * encrypted into many records; behind a small send buffer the reader met the end of the
     * connection part-way through the frames, over TLS in every run, plain in one of three.)
     */
    @Test
    @Timeout(120)
    void closeOverTlsDeliversEverythingQueuedToASlowReaderAndThenEnds() throws Exception {
        LoopbackTls tls = LoopbackTls.create();
        closeDeliversEverythingQueuedToASlowReader(tls.server(), tls.client());
    }

    @Test
    @Timeout(120)
    void closeDeliversEverythingQueuedToASlowReaderAndThenEnds() throws Exception {
        closeDeliversEverythingQueuedToASlowReader(null, null);
    }

    private void closeDeliversEverythingQueuedToASlowReader(TlsConfig serverTls, TlsConfig clientTls)
            throws Exception {
        int frames = 100;
        byte[] payload = new byte[10_000];
        new Random(11).nextBytes(payload);
        Recorder handler = new Recorder(true);
        TransportServer server = start(ServerOptions.builder().host("127.0.0.1").port(0).tls(serverTls).build(),
                handler);
        RawClient client = new RawClient(server.localAddress(), clientTls);
        Session session = openBehindASmallSendBuffer(handler, client, "closing reader");

        for (int i = 0; i < frames; i++) {
            session.send(new Response(i, new Result.Echoed(Value.of(payload))));
        }
        session.close();
        for (int i = 0; i < frames; i++) {
            Response response = assertInstanceOf(Response.class, client.read(), "frame " + i);
            assertEquals(i, response.id(), "frames out of order");
            assertEquals(new Result.Echoed(Value.of(payload)), response.result());
            Thread.sleep(1);
        }
        assertTrue(client.atEnd(), "the connection stayed open after the last frame");
    }

    /**
     * A server stopped while a client has stopped reading, with far more queued for it than the
     * socket takes: the stop returns within its grace, the session's end is reported once, and the
     * client meets the end of the connection after what was already on its way. (A session's own
     * close waits for a slow reader; a stop does not wait for one that never reads.)
     */
    @Test
    @Timeout(60)
    void serverStopEndsTheConnectionOfAClientThatStoppedReading() throws Exception {
        serverStopEndsTheConnectionOfAClientThatStoppedReading(null, null);
    }

    @Test
    @Timeout(60)
    void serverStopEndsTheTlsConnectionOfAClientThatStoppedReading() throws Exception {
        LoopbackTls tls = LoopbackTls.create();
        serverStopEndsTheConnectionOfAClientThatStoppedReading(tls.server(), tls.client());
    }

    private void serverStopEndsTheConnectionOfAClientThatStoppedReading(TlsConfig serverTls, TlsConfig clientTls)
            throws Exception {
        Recorder handler = new Recorder(true);
        TransportServer server = provider.createServer(
                ServerOptions.builder().host("127.0.0.1").port(0).tls(serverTls).build());
        server.start(handler);
        RawClient client = new RawClient(server.localAddress(), clientTls);
        Session session = openBehindASmallSendBuffer(handler, client, "stopped reader");
        byte[] payload = new byte[10_000];
        int frames = 2_000;
        for (int i = 0; i < frames; i++) {
            session.send(new Response(i, new Result.Echoed(Value.of(payload))));
        }

        long start = System.nanoTime();
        server.close();
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(stopMillis < 15_000, "the stop took " + stopMillis + " ms");
        assertNotNull(handler.closedCauses.poll(WAIT_SECONDS, TimeUnit.SECONDS), "the session's end was not reported");
        assertEquals(0, handler.closedCauses.size(), "the session's end was reported twice");

        client.setReadTimeout(WAIT_SECONDS);
        int received = 0;
        try {
            while (true) {
                Response response = assertInstanceOf(Response.class, client.read(), "frame " + received);
                assertEquals(received, response.id(), "frames out of order");
                received++;
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection stayed open after " + received + " frames", e);
        } catch (IOException end) {
            // The end of the connection, or its reset: what the test waits for.
        }
        assertTrue(received < frames, "all " + frames + " frames arrived: the stop dropped nothing queued");
    }

    /**
     * Completes the hello of {@code client} and gives its session a small send buffer: the socket
     * fills after a record or two, so most writes end part-way.
     */
    private XsocketSession openBehindASmallSendBuffer(Recorder handler, RawClient client, String name)
            throws Exception {
        toClose.add(client);
        client.write(Hello.of("protobuf", name));
        client.flush();
        XsocketSession session = (XsocketSession) handler.opened.poll(FLOOD_WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(session, "no session opened");
        assertInstanceOf(HelloReply.class, client.read());
        session.connection.setOption(IConnection.SO_SNDBUF, 8 * 1024);
        return session;
    }

    private static StreamData reading(long i) {
        return new StreamData(1, Reading.ok("s", i, i, Value.of(i)));
    }

    private RawClient connectRaw(TransportServer server) throws IOException {
        RawClient c = new RawClient(server.localAddress());
        toClose.add(c);
        return c;
    }

    private TransportServer start(ServerOptions options, ServerHandler handler) throws IOException {
        TransportServer s = provider.createServer(options);
        toClose.add(s);
        s.start(handler);
        return s;
    }

    private TransportClient connect(TransportServer s, ClientHandler handler) throws IOException {
        TransportClient c = provider.createClient(ClientOptions.builder().port(s.localAddress().getPort()).build());
        toClose.add(c);
        c.connect(handler);
        return c;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A server and a client TLS configuration for 127.0.0.1, the client trusting only the server's own new certificate. */
    record LoopbackTls(TlsConfig server, TlsConfig client) {
        static LoopbackTls create() throws Exception {
            Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
            return new LoopbackTls(TlsConfig.server(identity),
                    TlsConfig.clientTrusting(List.of(identity.certificate()), "the test's certificate"));
        }
    }

    /** Answers hellos and echoes; records what happens. */
    static class Recorder implements ServerHandler {
        final BlockingQueue<Session> opened = new LinkedBlockingQueue<>();
        final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> closedCauses = new LinkedBlockingQueue<>();
        private final boolean answer;

        Recorder(boolean answer) {
            this.answer = answer;
        }

        @Override
        public void sessionOpened(Session session) {
            opened.add(session);
        }

        @Override
        public void messageReceived(Session session, Message message) {
            messages.add(message);
            if (!answer) {
                return;
            }
            if (message instanceof Hello) {
                session.send(HelloReply.accept("test-agent"));
            } else if (message instanceof Request r && r.call() instanceof Call.Echo e) {
                session.send(new Response(r.id(), new Result.Echoed(e.payload())));
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            closedCauses.add(cause == null ? new Throwable("closed without cause") : cause);
        }
    }

    static class ClientRecorder implements ClientHandler {
        final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
        final AtomicInteger closedCount = new AtomicInteger();
        final AtomicReference<Throwable> cause = new AtomicReference<>();
        final CountDownLatch closedLatch = new CountDownLatch(1);

        @Override
        public void messageReceived(Message message) {
            messages.add(message);
        }

        @Override
        public void closed(Throwable c) {
            cause.set(c);
            closedCount.incrementAndGet();
            closedLatch.countDown();
        }

        Message next() throws InterruptedException {
            Message m = messages.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(m, "no message arrived");
            return m;
        }

        Message nextSkippingHandshake() throws InterruptedException {
            Message m = next();
            return m instanceof HelloReply ? next() : m;
        }
    }

    /** Answers an echo request with a burst of small stream frames, then the answer, from its own thread. */
    static final class Flooder implements ServerHandler {
        private final int frames;

        Flooder(int frames) {
            this.frames = frames;
        }

        @Override
        public void sessionOpened(Session session) {}

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.accept("flood-agent"));
            } else if (message instanceof Request r && r.call() instanceof Call.Echo e) {
                Thread t = new Thread(() -> {
                    for (int i = 0; i < frames; i++) {
                        session.send(new StreamData(1, Reading.ok("s", i, i, Value.of(i))));
                    }
                    session.send(new Response(r.id(), new Result.Echoed(e.payload())));
                }, "flooder");
                t.setDaemon(true);
                t.start();
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {}
    }

    static final class FloodCounter implements ClientHandler {
        final AtomicInteger frames = new AtomicInteger();
        final BlockingQueue<Response> response = new LinkedBlockingQueue<>();

        @Override
        public void messageReceived(Message message) {
            if (message instanceof StreamData) {
                frames.incrementAndGet();
                // A couple of microseconds of work per frame: slower than xSocket reads them.
                long until = System.nanoTime() + 2_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            } else if (message instanceof Response r) {
                response.add(r);
            }
        }

        @Override
        public void closed(Throwable cause) {}
    }

    /** A plain socket speaking the framing, writing without waiting for answers. */
    static final class RawClient implements AutoCloseable {
        private final Socket socket;
        private final DataOutputStream out;
        private final DataInputStream in;
        private final ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());

        RawClient(InetSocketAddress address) throws IOException {
            this(address, null);
        }

        /** Over TLS when {@code tls} is given; with a small receive buffer, so a slow reader fills the path. */
        RawClient(InetSocketAddress address, TlsConfig tls) throws IOException {
            Socket plain = new Socket();
            if (tls != null) {
                plain.setReceiveBufferSize(16 * 1024);
            }
            plain.connect(new InetSocketAddress("127.0.0.1", address.getPort()), 5_000);
            socket = tls == null ? plain : tls.clientSocket(plain, "127.0.0.1", address.getPort());
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(FLOOD_WAIT_SECONDS));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        }

        void write(Message message) throws IOException {
            byte[] body = codec.encode(message);
            out.writeInt(body.length);
            out.write(body);
        }

        void flush() throws IOException {
            out.flush();
        }

        Message read() throws Exception {
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            return codec.decode(body);
        }

        void setReadTimeout(long seconds) throws IOException {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(seconds));
        }

        /** Whether the peer ended the connection rather than sending more. */
        boolean atEnd() throws IOException {
            return in.read() < 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
