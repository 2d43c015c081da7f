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
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;
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
        TransportClient c = provider.createClient(ClientOptions.builder().port(s.localAddress().getPort())
                .properties(Map.of(XsocketClient.READ_BUFFER_PROPERTY, "4096")).build());
        toClose.add(c);
        c.connect(client);
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
