package org.salgate.transport.xsocket;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.SessionEndings;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/** Every way an xsocket session ends gives back its share of the server's memory budget. */
class XsocketMemoryBudgetTest {

    @Test
    @Timeout(120)
    void everyWayASessionEndsGivesBackItsShareOfTheBudget() throws Exception {
        SessionEndings.assertEveryEndingGivesBackTheBudget(new XsocketTransportProvider(),
                server -> ((XsocketServer) server).budget());
    }

    /**
     * xSocket's close first writes the buffer in its hands, which a peer that never reads does not
     * let happen: a session closed at once must still end the connection (the peer's writes fail),
     * rather than leave it open with xSocket's buffers held.
     */
    @Test
    @Timeout(60)
    void aSessionClosedAtOnceEndsTheConnectionOfAPeerThatNeverReads() throws Exception {
        CompletableFuture<Session> stalled = new CompletableFuture<>();
        TransportServer server = new XsocketTransportProvider().createServer(
                ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.start(new ServerHandler() {
            @Override
            public void sessionOpened(Session session) {
            }

            private final AtomicLong requests = new AtomicLong();

            @Override
            public void messageReceived(Session session, Message message) {
                if (message instanceof Hello) {
                    session.send(HelloReply.accept("test"));
                } else if (requests.incrementAndGet() == 100_000) { // the peer is well under way
                    Response large = new Response(1, new Result.Echoed(Value.of(new byte[60_000])));
                    for (int i = 0; i < 100; i++) {
                        session.send(large); // more than the kernel holds for a peer that does not read
                    }
                    stalled.complete(session);
                }
            }

            @Override
            public void sessionClosed(Session session, Throwable cause) {
            }
        });
        try (Socket peer = new Socket()) {
            peer.setReceiveBufferSize(4 * 1024);
            peer.connect(server.localAddress());
            DataOutputStream out = new DataOutputStream(peer.getOutputStream());
            ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
            byte[] hello = codec.encode(Hello.of(Codecs.defaultCodec().name(), "never-reads"));
            out.writeInt(hello.length);
            out.write(hello);
            byte[] request = codec.encode(new Request(2, new Call.ListProtocols()));
            CompletableFuture<IOException> ended = new CompletableFuture<>();
            Thread writer = new Thread(() -> {
                try {
                    while (true) {
                        out.writeInt(request.length);
                        out.write(request);
                    }
                } catch (IOException e) {
                    ended.complete(e); // the server ended the connection
                }
            }, "never-reads");
            writer.setDaemon(true);
            writer.start();

            Session session = stalled.get(10, TimeUnit.SECONDS);
            Thread.sleep(1_000); // the peer goes on writing, and the session reading, while the answers wait
            session.closeNow("closed at once by the test");
            try {
                ended.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("the connection of a peer that never reads stayed open 10 s after its "
                        + "session was closed at once", e);
            }
        } finally {
            server.close();
        }
    }
}
