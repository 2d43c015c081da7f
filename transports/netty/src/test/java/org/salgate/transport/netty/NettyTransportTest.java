package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.DataOutputStream;
import java.net.Socket;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
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
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/** Focused checks of the Netty transport; the full behaviour is in the transport tck. */
class NettyTransportTest {

    private final NettyTransportProvider provider = new NettyTransportProvider();
    private final EchoHandler handler = new EchoHandler();
    private TransportServer server;
    private TransportClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void isFoundByName() {
        assertInstanceOf(NettyTransportProvider.class, Transports.byName("netty"));
    }

    @Test
    @Timeout(20)
    void helloAndEchoRoundTrip() throws Exception {
        server = provider.createServer(ServerOptions.builder().build());
        server.start(handler);
        BlockingQueue<Message> received = new LinkedBlockingQueue<>();
        client = provider.createClient(ClientOptions.builder().port(server.localAddress().getPort()).build());
        client.connect(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                received.add(message);
            }

            @Override
            public void closed(Throwable cause) {
            }
        });
        client.send(Hello.of("protobuf", "unit"));
        assertEquals(HelloReply.accept("unit-server"), received.poll(10, TimeUnit.SECONDS));
        Value payload = Value.of(new byte[100_000]);
        client.send(new Request(7, new Call.Echo(payload)));
        assertEquals(new Response(7, new Result.Echoed(payload)), received.poll(10, TimeUnit.SECONDS));
    }

    @Test
    @Timeout(20)
    void oversizeFrameClosesTheSessionWithFrameTooLarge() throws Exception {
        server = provider.createServer(ServerOptions.builder().maxFrameBytes(1000).build());
        server.start(handler);
        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(1001);
            out.flush();
            Optional<Throwable> cause = handler.closed.get(10, TimeUnit.SECONDS);
            assertInstanceOf(Framing.FrameTooLargeException.class, cause.orElse(null));
            socket.setSoTimeout(10_000);
            assertEquals(-1, socket.getInputStream().read(), "the server should close the connection");
        }
    }

    /** Answers the hello and echoes; remembers the first session and how it closed. */
    private static final class EchoHandler implements ServerHandler {
        final CompletableFuture<Session> opened = new CompletableFuture<>();
        final CompletableFuture<Optional<Throwable>> closed = new CompletableFuture<>();

        @Override
        public void sessionOpened(Session session) {
            opened.complete(session);
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.accept("unit-server"));
            } else if (message instanceof Request r && r.call() instanceof Call.Echo e) {
                session.send(new Response(r.id(), new Result.Echoed(e.payload())));
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            closed.complete(Optional.ofNullable(cause));
        }
    }
}
