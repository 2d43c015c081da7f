package org.salgate.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/** Frames sent while a write is under way leave merged, whole, in order, and still count as queued. */
class MinaWriteBatchingTest {

    private static final int SMALL_PAYLOAD_BYTES = 40;
    private static final int LARGE_PAYLOAD_BYTES = 80 * 1024;
    private static final long WAIT_SECONDS = 30;

    private final MinaTransportProvider provider = new MinaTransportProvider();
    private TransportServer server;
    private TransportClient client;
    private Socket raw;

    @AfterEach
    void closeEverything() throws IOException {
        if (raw != null) {
            raw.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Timeout(60)
    void burstSentOnTheIoThreadLeavesInAFewBuffersWholeAndInOrder() throws Exception {
        int frames = 2_000;
        CompletableFuture<Long> buffersWrittenBeforeTheRequest = new CompletableFuture<>();
        startServer(ServerOptions.builder().build(), (session, message) -> {
            if (message instanceof Hello) {
                // On the session's I/O thread nothing is flushed until this returns, so all but the
                // reply wait in the writer and leave merged.
                session.send(HelloReply.accept("unit"));
                for (int i = 0; i < frames; i++) {
                    session.send(numbered(i, payloadBytes(i, frames)));
                }
            } else if (message instanceof Request r) {
                buffersWrittenBeforeTheRequest.complete(((MinaServer.MinaSession) session).io.getWrittenMessages());
                session.send(numbered(r.id(), SMALL_PAYLOAD_BYTES));
            }
        });
        BlockingQueue<Message> received = connectClient();

        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        assertEquals(HelloReply.accept("unit"), next(received));
        for (int i = 0; i < frames; i++) {
            assertEquals(numbered(i, payloadBytes(i, frames)), next(received), "frame " + i);
        }
        client.send(new Request(frames, new Call.Echo(Value.of(1L))));
        assertEquals(numbered(frames, SMALL_PAYLOAD_BYTES), next(received));

        // The reply alone, about 60 KB of small frames, the 80 KB frame in a buffer of its own, about
        // 60 KB more: a handful of buffers where unbatched writes would take 2,001.
        long buffers = buffersWrittenBeforeTheRequest.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(buffers <= 8, (frames + 1) + " frames left in " + buffers + " buffers");
    }

    @Test
    @Timeout(120)
    void framesWaitingInTheWriterTurnTheSessionUnwritableAndThenArriveInOrder() throws Exception {
        int lowWater = 16 * 1024;
        int highWater = 64 * 1024;
        // Far past the high-water mark: a session still writable here does not count the waiting frames.
        int maxFrames = 100_000;
        ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        CompletableFuture<Session> stopped = new CompletableFuture<>();
        CompletableFuture<Void> writableAgain = new CompletableFuture<>();
        AtomicInteger sent = new AtomicInteger();
        startServer(ServerOptions.builder().writeWaterMarks(lowWater, highWater).build(), (session, message) -> {
            if (message instanceof Hello) {
                // On the session's I/O thread nothing is flushed until this returns: every frame but
                // the first waits in the writer, so only the writer's count can stop the producer.
                session.setWritabilityListener(() -> writableAgain.complete(null));
                session.send(HelloReply.accept("unit"));
                while (session.isWritable() && sent.get() < maxFrames) {
                    session.send(numbered(sent.getAndIncrement(), SMALL_PAYLOAD_BYTES));
                }
                stopped.complete(session);
            }
        });
        raw = new Socket();
        raw.setReceiveBufferSize(8 * 1024);
        raw.connect(server.localAddress());
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        byte[] hello = codec.encode(Hello.of(Codecs.defaultCodec().name(), "slow"));
        out.writeInt(hello.length);
        out.write(hello);
        out.flush();

        Session session = stopped.get(WAIT_SECONDS, TimeUnit.SECONDS);
        int frames = sent.get();
        assertTrue(frames < maxFrames, "the session stayed writable after " + frames + " waiting frames");
        long queued = frameBytes(codec, HelloReply.accept("unit"));
        for (int i = 0; i < frames - 1; i++) {
            queued += frameBytes(codec, numbered(i, SMALL_PAYLOAD_BYTES));
        }
        assertTrue(queued < highWater, "the session turned unwritable at " + queued + " B, below the mark");
        queued += frameBytes(codec, numbered(frames - 1, SMALL_PAYLOAD_BYTES));
        assertTrue(queued >= highWater, "the session stopped at " + queued + " B, not at the high-water mark");

        DataInputStream in = new DataInputStream(raw.getInputStream());
        assertEquals(HelloReply.accept("unit"), readFrame(in, codec));
        for (int i = 0; i < frames; i++) {
            assertEquals(numbered(i, SMALL_PAYLOAD_BYTES), readFrame(in, codec), "frame " + i + " of " + frames);
        }
        writableAgain.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(session.isWritable());
        session.send(numbered(frames, SMALL_PAYLOAD_BYTES));
        assertEquals(numbered(frames, SMALL_PAYLOAD_BYTES), readFrame(in, codec));
    }

    @Test
    @Timeout(60)
    void clientBurstReachesTheServerWholeAndInOrder() throws Exception {
        int requests = 5_000;
        BlockingQueue<Message> atServer = new LinkedBlockingQueue<>();
        startServer(ServerOptions.builder().build(), (session, message) -> atServer.add(message));
        connectClient();

        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        for (int i = 0; i < requests; i++) {
            client.send(new Request(i, new Call.Echo(Value.of(new byte[payloadBytes(i, requests)]))));
        }
        assertEquals(Hello.of(Codecs.defaultCodec().name(), "unit"), next(atServer));
        for (int i = 0; i < requests; i++) {
            assertEquals(new Request(i, new Call.Echo(Value.of(new byte[payloadBytes(i, requests)]))),
                    next(atServer), "request " + i);
        }
    }

    /** Small frames with one large frame in the middle. */
    private static int payloadBytes(int index, int count) {
        return index == count / 2 ? LARGE_PAYLOAD_BYTES : SMALL_PAYLOAD_BYTES;
    }

    private static Response numbered(long id, int payloadBytes) {
        byte[] payload = new byte[payloadBytes];
        payload[0] = (byte) id;
        payload[payloadBytes - 1] = (byte) (id >>> 8);
        return new Response(id, new Result.Echoed(Value.of(payload)));
    }

    private void startServer(ServerOptions options, BiConsumer<Session, Message> onMessage) throws IOException {
        server = provider.createServer(options);
        server.start(new ServerHandler() {
            @Override
            public void sessionOpened(Session session) {
            }

            @Override
            public void messageReceived(Session session, Message message) {
                onMessage.accept(session, message);
            }

            @Override
            public void sessionClosed(Session session, Throwable cause) {
            }
        });
    }

    private BlockingQueue<Message> connectClient() throws IOException {
        RecordingClientHandler handler = new RecordingClientHandler();
        client = provider.createClient(ClientOptions.builder().port(server.localAddress().getPort()).build());
        client.connect(handler);
        return handler.received;
    }

    private static Message next(BlockingQueue<Message> queue) throws InterruptedException {
        Message message = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(message, "nothing arrived within " + WAIT_SECONDS + " s");
        return message;
    }

    private static int frameBytes(ConnectionCodec codec, Message message) {
        return Framing.LENGTH_FIELD_BYTES + codec.encode(message).length;
    }

    private static Message readFrame(DataInputStream in, ConnectionCodec codec) throws Exception {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return codec.decode(frame);
    }
}
