package org.salgate.transport.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.wire.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.Value;

/**
 * Answers sent on a session's reader thread leave from that thread, with no writer thread; frames
 * sent from other threads at the same time still leave whole and in order, beside them.
 */
@Timeout(60)
class SocketSessionWritesTest {

    private static final int CALLS = 2_000;
    private static final int PUSHED = 5_000;

    private TransportServer server;
    private TransportClient client;

    @AfterEach
    void closeEverything() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void answersLeaveFromTheReaderAndFramesFromOtherThreadsInterleaveWholeAndInOrder() throws Exception {
        RecordingServerHandler handler = new RecordingServerHandler(); // answers on the calling (reader) thread
        server = new SocketTransportProvider().createServer(ServerOptions.builder().port(0).build());
        server.start(handler);
        BlockingQueue<Message> received = new LinkedBlockingQueue<>();
        client = new SocketTransportProvider().createClient(ClientOptions.builder()
                .port(server.localAddress().getPort()).build());
        client.connect(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                received.add(message);
            }

            @Override
            public void closed(Throwable cause) {
            }
        });
        client.send(Hello.of(ProtobufCodec.NAME, "writes"));
        assertInstanceOf(HelloReply.class, received.poll(10, TimeUnit.SECONDS));
        Session session = handler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session);

        for (int i = 0; i < 50; i++) { // calls alone: every answer leaves from the reader
            client.send(new Request(i, new Call.Echo(Value.of(i))));
            assertEquals(new Response(i, new Result.Echoed(Value.of(i))), received.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(0, writerThreads(), "no writer thread for answers sent on the reader");

        Thread pusher = new Thread(() -> {
            for (int i = 0; i < PUSHED; i++) {
                session.send(new StreamData(7, Reading.ok("S", 0, i, Value.of(new byte[i % 700]))));
            }
        }, "pusher");
        pusher.start();
        for (int i = 0; i < CALLS; i++) {
            client.send(new Request(1_000 + i, new Call.Echo(Value.of("call " + i))));
        }
        pusher.join(30_000);

        List<Long> sequences = new ArrayList<>();
        List<Long> answered = new ArrayList<>();
        while (sequences.size() < PUSHED || answered.size() < CALLS) {
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
        for (int i = 0; i < PUSHED; i++) {
            assertEquals(i, sequences.get(i), "pushed frames arrive whole and in order");
        }
        for (int i = 0; i < CALLS; i++) {
            assertEquals(1_000 + i, answered.get(i), "answers arrive in the order of their calls");
        }
        assertTrue(writerThreads() <= 1, "frames from other threads leave from the session's one writer");
    }

    private static long writerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("salgate-socket-write-")).count();
    }
}
