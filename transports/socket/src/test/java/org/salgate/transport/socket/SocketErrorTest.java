package org.salgate.transport.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * An {@link Error} on a connection's reader thread (the handler ran out of memory, say) closes that
 * connection: the handler is told why, the session's threads end and its socket is closed, and
 * the server keeps serving other clients.
 */
@Timeout(30)
class SocketErrorTest {

    private static final Value FATAL = Value.of("throw an error");

    /** Throws an {@link OutOfMemoryError} on the echo of {@link #FATAL}. */
    private static final class FailingHandler extends RecordingServerHandler {
        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Request r && r.call() instanceof Call.Echo e && e.payload().equals(FATAL)) {
                throw new OutOfMemoryError("simulated by the test");
            }
            super.messageReceived(session, message);
        }
    }

    private static TransportClient connect(TransportServer server, RecordingClientHandler handler) throws Exception {
        TransportClient client = new SocketTransportProvider().createClient(ClientOptions.builder()
                .port(server.localAddress().getPort()).build());
        client.connect(handler);
        client.send(Hello.of(ProtobufCodec.NAME, "test"));
        assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
        return client;
    }

    /** The live reader and writer threads of sessions, but those in {@code earlier}. */
    private static Set<Thread> sessionThreads(Set<Thread> earlier) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !earlier.contains(t))
                .filter(t -> t.getName().startsWith("salgate-socket-read-")
                        || t.getName().startsWith("salgate-socket-write-"))
                .collect(Collectors.toSet());
    }

    @Test
    void anErrorOnTheReaderThreadClosesThatConnectionAndEndsItsThreads() throws Exception {
        Set<Thread> earlier = sessionThreads(Set.of());
        FailingHandler handler = new FailingHandler();
        TransportServer server = new SocketTransportProvider().createServer(ServerOptions.builder().port(0).build());
        server.start(handler);
        RecordingClientHandler failingHandler = new RecordingClientHandler();
        RecordingClientHandler otherHandler = new RecordingClientHandler();
        try (AutoCloseable stop = server::close) {
            TransportClient failing = connect(server, failingHandler);
            TransportClient other = connect(server, otherHandler);
            Set<Thread> threadsWithBoth = sessionThreads(earlier);
            // answers sent on a session's reader thread leave from it: no writer thread is started
            assertEquals(2, threadsWithBoth.size(), "two sessions, their reader threads: " + threadsWithBoth);

            failing.send(new Request(1, new Call.Echo(FATAL)));
            Throwable cause = handler.closed.get(10, TimeUnit.SECONDS);
            assertInstanceOf(OutOfMemoryError.class, cause, "the handler should be told the session ended by the Error");
            failingHandler.closed.get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sessionThreads(earlier).size() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, sessionThreads(earlier).size(),
                    "the failed session's threads should end: " + sessionThreads(earlier));

            other.send(new Request(2, new Call.Echo(Value.of("still here"))));
            assertEquals(new Response(2, new Result.Echoed(Value.of("still here"))),
                    otherHandler.received.poll(10, TimeUnit.SECONDS));
            assertTrue(other.isOpen());
            failing.close();
            other.close();
        }
    }
}
