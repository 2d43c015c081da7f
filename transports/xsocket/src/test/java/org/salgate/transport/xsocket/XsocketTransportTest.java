package org.salgate.transport.xsocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.salgate.wire.Call;
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
/**
 * What only xSocket needs beyond the shared conformance suite (transports/tck), which covers round
 * trips, backpressure, oversize and malformed frames, and the life cycle for every transport.
 */
class XsocketTransportTest {

    private static final long WAIT_SECONDS = 10;

    private final TransportProvider provider = new XsocketTransportProvider();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void clientReceivesFramesLargerThanItsReadBufferLimit() throws Exception {
        Recorder server = new Recorder(true);
        TransportServer s = start(ServerOptions.builder().build(), server);
        ClientRecorder client = new ClientRecorder();
        TransportClient c = connectWithReadLimit(s, client, 4096);
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
     * A client whose read limit is far below the burst keeps suspending and resuming; that resumes
     * reading from its delivery thread, which moves xSocket's callbacks onto a worker while the
     * dispatcher keeps reading. The frames and the answer behind them must still all come through.
     */
    @Test
    @Timeout(180)
    void answerBehindAFloodOfSmallFramesReachesAClientWithASmallReadLimit() throws Exception {
        int frames = 500_000;
        Flooder server = new Flooder(frames);
        TransportServer s = start(ServerOptions.builder().build(), server);
        FloodCounter client = new FloodCounter();
        TransportClient c = connectWithReadLimit(s, client, 1024);
        c.send(Hello.of("protobuf", "flood"));
        c.send(new Request(7, new Call.Echo(Value.of("after the flood"))));
        Response r = client.response.poll(150, TimeUnit.SECONDS);
        assertNotNull(r, "the answer never came; " + client.frames.get() + " of " + frames + " frames arrived");
        assertEquals(new Result.Echoed(Value.of("after the flood")), r.result());
        assertEquals(frames, client.frames.get());
    }

    private TransportServer start(ServerOptions options, ServerHandler handler) throws IOException {
        TransportServer s = provider.createServer(options);
        toClose.add(s);
        s.start(handler);
        return s;
    }

    private TransportClient connectWithReadLimit(TransportServer s, ClientHandler handler, int readBufferBytes)
            throws IOException {
        TransportClient c = provider.createClient(ClientOptions.builder().port(s.localAddress().getPort())
                .properties(Map.of(XsocketClient.READ_BUFFER_PROPERTY, Integer.toString(readBufferBytes))).build());
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
}
