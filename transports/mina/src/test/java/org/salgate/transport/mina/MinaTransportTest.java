package org.salgate.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
import org.salgate.transport.Transports;
import org.salgate.wire.Call;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.Value;

@Timeout(30)
class MinaTransportTest {

    private static final long WAIT_SECONDS = 10;

    private final TransportProvider provider = new MinaTransportProvider();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void providerIsFoundByName() {
        assertInstanceOf(MinaTransportProvider.class, Transports.byName("mina"));
    }

    @Test
    void roundTripKeepsOrder() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        ClientRecorder client = new ClientRecorder();
        TransportClient c = connect(s, client);

        c.send(Hello.of("protobuf", "test"));
        int n = 200;
        for (int i = 0; i < n; i++) {
            c.send(new Request(i, new Call.Echo(Value.of("m" + i))));
        }
        assertInstanceOf(HelloReply.class, client.next());
        for (int i = 0; i < n; i++) {
            Response r = assertInstanceOf(Response.class, client.next());
            assertEquals(i, r.id());
            assertEquals(new Result.Echoed(Value.of("m" + i)), r.result());
        }
        assertInstanceOf(Hello.class, server.messages.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(c.isOpen());
    }

    @Test
    void slowReaderMakesSessionUnwritableAndListenerFiresAfterDrain() throws Exception {
        int low = 64 * 1024;
        int high = 256 * 1024;
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().writeWaterMarks(low, high).build(), server);
        CountDownLatch release = new CountDownLatch(1);
        ClientRecorder client = new ClientRecorder() {
            @Override
            public void messageReceived(Message message) {
                await(release);
                super.messageReceived(message);
            }
        };
        TransportClient c = connect(s, client);
        c.send(Hello.of("protobuf", "slow"));
        Session session = server.opened.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(session);

        CountDownLatch writable = new CountDownLatch(1);
        session.setWritabilityListener(writable::countDown);
        byte[] payload = new byte[16 * 1024];
        int sent = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (session.isWritable()) {
            assertTrue(System.nanoTime() < deadline, "the session never became unwritable");
            session.send(new StreamData(1, Reading.ok("S", 0, sent++, Value.of(payload))));
        }
        // The client's socket buffers may still grow and take some of it, so the listener could
        // already run here; after the client reads again it must have run.
        assertFalse(session.isWritable());

        release.countDown();
        assertTrue(writable.await(WAIT_SECONDS, TimeUnit.SECONDS), "the writability listener never ran");
        for (int i = 0; i < sent; i++) {
            StreamData d = assertInstanceOf(StreamData.class, client.nextSkippingHandshake());
            assertEquals(i, d.reading().sequence());
        }
    }

    @Test
    void oversizedFrameClosesOnlyThatSessionWithCause() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().maxFrameBytes(1024).build(), server);
        ClientRecorder good = new ClientRecorder();
        TransportClient c = connect(s, good);
        c.send(Hello.of("protobuf", "good"));
        assertInstanceOf(HelloReply.class, good.next());

        try (Socket raw = new Socket("127.0.0.1", s.localAddress().getPort())) {
            DataOutputStream out = new DataOutputStream(raw.getOutputStream());
            out.writeInt(1_000_000);
            out.write(new byte[100]);
            out.flush();
            Throwable cause = server.closedCauses.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertInstanceOf(Framing.FrameTooLargeException.class, cause);
        }
        c.send(new Request(7, new Call.Echo(Value.of(1L))));
        assertEquals(7, assertInstanceOf(Response.class, good.next()).id());
    }

    @Test
    void malformedBytesCloseTheSessionWithCause() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        try (Socket raw = new Socket("127.0.0.1", s.localAddress().getPort())) {
            DataOutputStream out = new DataOutputStream(raw.getOutputStream());
            out.writeInt(8);
            out.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3, 4});
            out.flush();
            Throwable cause = server.closedCauses.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertInstanceOf(org.salgate.wire.CodecException.class, cause);
        }
    }

    @Test
    void serverCloseReportsEverySessionAndClientsOnce() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        List<ClientRecorder> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ClientRecorder r = new ClientRecorder();
            TransportClient c = connect(s, r);
            c.send(Hello.of("protobuf", "c" + i));
            assertInstanceOf(HelloReply.class, r.next());
            clients.add(r);
        }
        s.close();
        for (int i = 0; i < 3; i++) {
            assertNotNull(server.closedCauses.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        for (ClientRecorder r : clients) {
            assertTrue(r.closedLatch.await(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        Thread.yield();
        for (ClientRecorder r : clients) {
            assertEquals(1, r.closedCount.get());
        }
        s.close();
    }

    @Test
    void clientCloseIsReportedOnceWithoutCause() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        ClientRecorder r = new ClientRecorder();
        TransportClient c = connect(s, r);
        c.close();
        c.close();
        assertTrue(r.closedLatch.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertNull(r.cause.get());
        assertEquals(1, r.closedCount.get());
        assertFalse(c.isOpen());
        assertThrows(IOException.class, () -> c.send(Hello.of("protobuf", "late")));
        assertNotNull(server.closedCauses.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void connectToClosedPortFailsClearly() throws Exception {
        int port;
        try (java.net.ServerSocket ss = new java.net.ServerSocket(0)) {
            port = ss.getLocalPort();
        }
        TransportClient c = provider.createClient(ClientOptions.builder().port(port)
                .connectTimeout(Duration.ofSeconds(2)).build());
        IOException e = assertThrows(IOException.class, () -> c.connect(new ClientRecorder()));
        assertTrue(e.getMessage().contains(String.valueOf(port)), e.getMessage());
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

}
