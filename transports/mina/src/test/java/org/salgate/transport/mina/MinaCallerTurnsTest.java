package org.salgate.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
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

/**
 * The MINA client writes a request on the sender's thread when nothing else is on its way, and
 * leaves to MINA's loop what the socket does not take at once, whole and in order, over TLS as on a
 * plain socket; its waiting callers do not wake the loop unless they leave it work. (What its
 * waiting callers read is the caller-read suite's, in the TCK, plain and over TLS.)
 */
@Timeout(60)
class MinaCallerTurnsTest {

    private final MinaTransportProvider provider = new MinaTransportProvider();
    private TransportServer server;
    private MinaClient client;
    private ServerSocket rawServer;
    private Socket raw;

    @AfterEach
    void closeEverything() throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (raw != null) {
            raw.close();
        }
        if (rawServer != null) {
            rawServer.close();
        }
    }

    @Test
    void requestsMadeOneAtATimeLeaveWholeOnTheCallersThread() throws Exception {
        server = provider.createServer(ServerOptions.builder().build());
        server.start(new RecordingServerHandler());
        client = new MinaClient(ClientOptions.builder().port(server.localAddress().getPort()).build());
        RecordingClientHandler handler = new RecordingClientHandler();
        client.connect(handler);
        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        assertTrue(handler.received.poll(10, TimeUnit.SECONDS) instanceof HelloReply);
        for (long id = 1; id <= 200; id++) {
            client.send(new Request(id, new Call.Echo(Value.of(id))));
            Message answer = handler.received.poll(10, TimeUnit.SECONDS);
            assertEquals(new Response(id, new Result.Echoed(Value.of(id))), answer);
        }
        // The hello and every request: each found nothing queued, and the socket took it whole.
        assertEquals(201, client.callerTurns().writtenBySenders());
        assertEquals(0, client.callerTurns().restsLeftToLoop());
    }

    @Test
    void overTlsRequestsMadeOneAtATimeLeaveWholeOnTheCallersThread() throws Exception {
        RecordingClientHandler handler = connectedOverTlsPastTheHello();
        // The hello may have met the end of the handshake still on its way from the loop; not so these.
        long before = client.callerTurns().writtenBySenders();
        for (long id = 1; id <= 200; id++) {
            client.send(new Request(id, new Call.Echo(Value.of(id))));
            assertEquals(new Response(id, new Result.Echoed(Value.of(id))), handler.received.poll(10, TimeUnit.SECONDS));
        }
        // Each request is one TLS record, encrypted and written on the sender's thread.
        assertEquals(before + 200, client.callerTurns().writtenBySenders());
        assertEquals(0, client.callerTurns().restsLeftToLoop());
    }

    @Test
    void overTlsCallersOnOneConnectionWithRequestsOfEverySizeEachReadTheirOwnAnswer() throws Exception {
        Map<Long, CompletableFuture<Message>> pending = new ConcurrentHashMap<>();
        connectOverTls(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                long id = message instanceof Response r ? r.id() : 0;
                CompletableFuture<Message> answer = pending.remove(id);
                if (answer != null) {
                    answer.complete(message);
                }
            }

            @Override
            public void closed(Throwable cause) {
                pending.values().forEach(f -> f.completeExceptionally(new IOException("closed", cause)));
            }
        });
        CompletableFuture<Message> hello = new CompletableFuture<>();
        pending.put(0L, hello);
        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        assertTrue(hello.get(10, TimeUnit.SECONDS) instanceof HelloReply);
        // Four callers at once, each request from a few bytes to 200 KB: one TLS record or many, written
        // by the sender, by the loop, or begun by one and ended by the other. A record out of order
        // would fail the connection's decryption at the agent.
        AtomicLong ids = new AtomicLong();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread caller = new Thread(() -> {
                Random sizes = new Random(ids.get());
                try {
                    for (int i = 0; i < 150; i++) {
                        long id = ids.incrementAndGet();
                        byte[] payload = new byte[i % 10 == 0 ? sizes.nextInt(200 * 1024) : sizes.nextInt(2048)];
                        sizes.nextBytes(payload);
                        CompletableFuture<Message> answer = new CompletableFuture<>();
                        pending.put(id, answer);
                        client.send(new Request(id, new Call.Echo(Value.of(payload))));
                        client.readWhileWaiting(answer, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
                        assertEquals(new Response(id, new Result.Echoed(Value.of(payload))), answer.get(10, TimeUnit.SECONDS));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "caller-" + t);
            callers.add(caller);
            caller.start();
        }
        for (Thread caller : callers) {
            caller.join(50_000);
        }
        assertEquals(List.of(), failures);
        assertTrue(client.isOpen());
        // Some went whole on their sender's thread, some were left to the loop (the large ones' records).
        assertTrue(client.callerTurns().writtenBySenders() > 0);
    }

    @Test
    void overTlsARequestOfHundredsOfRecordsLeavesWithoutAStackFrameOnTheSenderPerRecord() throws Exception {
        RecordingClientHandler handler = connectedOverTlsPastTheHello();
        // 15 MB: about 960 records, each acknowledged as the socket takes it. Were they written on the
        // sender's thread, each acknowledgement would encrypt and write the next from inside the last
        // one's, and the sender's stack would overflow long before the end.
        byte[] big = new byte[15 * 1024 * 1024];
        new Random(2).nextBytes(big);
        for (long id = 1; id <= 2; id++) {
            client.send(new Request(id, new Call.Echo(Value.of(big))));
            assertEquals(new Response(id, new Result.Echoed(Value.of(big))), handler.received.poll(20, TimeUnit.SECONDS));
        }
        assertTrue(client.isOpen());
    }

    @Test
    void theLoopsShortSelectsWhileCallersReadAreNotTakenForASpinningSelector() throws Exception {
        AtomicReference<CompletableFuture<Message>> pending = connectedClientAnsweringInto();
        java.nio.channels.Selector before = client.callerTurns().loopSelector();
        // Calls back to back for half a second: the loop leaves reading to callers meanwhile, and
        // selects about a millisecond at a time, most often for nothing.
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        for (long id = 1; System.nanoTime() < until; id++) {
            callAndReadOwnAnswer(pending, id);
        }
        // MINA replaces a selector whose selects return early with nothing ten times in a row, unwoken.
        assertSame(before, client.callerTurns().loopSelector(), "the loop's selector was replaced");
    }

    @Test
    void callersThatLeaveNoWorkDoNotWakeTheLoopAsTheyGiveTheTurnBack() throws Exception {
        AtomicReference<CompletableFuture<Message>> pending = connectedClientAnsweringInto();
        long woken = client.callerTurns().loopWokenByLeavingCallers();
        int calls = 0;
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (calls < 200 || System.nanoTime() < until) {
            callAndReadOwnAnswer(pending, ++calls);
        }
        // One caller, one answer at a time, nothing pushed: no caller leaves the loop work (no
        // frames after its answer, nobody waiting without the turn), so none wakes it. (A loop
        // that waited for each caller to give the turn back was woken in about a tenth of them.)
        long wokenDuringCalls = client.callerTurns().loopWokenByLeavingCallers() - woken;
        assertTrue(wokenDuringCalls * 100 < calls, wokenDuringCalls + " wake-ups in " + calls + " calls");
    }

    @Test
    void aRequestTheSocketTakesInPartLeavesItsRestFromTheLoopBeforeTheNextOne() throws Exception {
        rawServer = new ServerSocket();
        rawServer.setReceiveBufferSize(8 * 1024); // inherited by the accepted socket: the client's writes back up soon
        rawServer.bind(new InetSocketAddress("127.0.0.1", 0));
        client = new MinaClient(ClientOptions.builder().port(rawServer.getLocalPort()).build());
        RecordingClientHandler handler = new RecordingClientHandler();
        client.connect(handler);
        raw = rawServer.accept();
        Request large = new Request(1, new Call.Echo(Value.of(new byte[8 * 1024 * 1024])));
        Request small = new Request(2, new Call.Echo(Value.of("after")));
        Hello hello = Hello.of(Codecs.defaultCodec().name(), "unit");
        client.send(hello);
        client.send(large); // the peer reads nothing yet: the socket takes what its buffers hold
        client.send(small);
        assertEquals(1, client.callerTurns().restsLeftToLoop());

        ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        DataInputStream in = new DataInputStream(raw.getInputStream());
        assertEquals(hello, readFrame(in, codec));
        assertEquals(large, readFrame(in, codec));
        assertEquals(small, readFrame(in, codec));
        CompletableFuture<Throwable> stillOpen = handler.closed;
        assertNull(stillOpen.getNow(null));
        assertTrue(client.isOpen());
    }

    @Test
    void overTlsALargeRequestTheSocketTakesInPartLeavesWholeFromTheLoopBeforeTheNextOne() throws Exception {
        TestTls tls = TestTls.create();
        SSLServerSocket tlsServer = (SSLServerSocket) tls.server().sslContext().getServerSocketFactory().createServerSocket();
        rawServer = tlsServer;
        rawServer.setReceiveBufferSize(8 * 1024); // inherited by the accepted socket: the client's writes back up soon
        rawServer.bind(new InetSocketAddress("127.0.0.1", 0));
        CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
            try {
                SSLSocket s = (SSLSocket) rawServer.accept();
                s.startHandshake();
                return s;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        client = new MinaClient(ClientOptions.builder().host("127.0.0.1").port(rawServer.getLocalPort())
                .tls(tls.client()).build());
        RecordingClientHandler handler = new RecordingClientHandler();
        client.connect(handler);
        raw = accepted.get(10, TimeUnit.SECONDS);
        byte[] big = new byte[8 * 1024 * 1024];
        new Random(1).nextBytes(big);
        Request large = new Request(1, new Call.Echo(Value.of(big)));
        Request small = new Request(2, new Call.Echo(Value.of("after")));
        Hello hello = Hello.of(Codecs.defaultCodec().name(), "unit");
        client.send(hello);
        client.send(large); // about 500 TLS records; the peer reads nothing yet
        client.send(small);

        ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        DataInputStream in = new DataInputStream(raw.getInputStream());
        assertEquals(hello, readFrame(in, codec));
        assertEquals(large, readFrame(in, codec));
        assertEquals(small, readFrame(in, codec));
        assertNull(handler.closed.getNow(null));
        assertTrue(client.isOpen());
    }

    /** {@link #connectOverTls} with a recording handler, then the hello and its reply. */
    private RecordingClientHandler connectedOverTlsPastTheHello() throws Exception {
        RecordingClientHandler handler = new RecordingClientHandler();
        connectOverTls(handler);
        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        assertTrue(handler.received.poll(10, TimeUnit.SECONDS) instanceof HelloReply);
        return handler;
    }

    /** Starts a TLS server and connects {@link #client} to it over TLS, with {@code handler}. */
    private void connectOverTls(ClientHandler handler) throws Exception {
        TestTls tls = TestTls.create();
        server = provider.createServer(ServerOptions.builder().host("127.0.0.1").tls(tls.server()).build());
        server.start(new RecordingServerHandler());
        client = new MinaClient(ClientOptions.builder().host("127.0.0.1").port(server.localAddress().getPort())
                .tls(tls.client()).build());
        client.connect(handler);
    }

    /** A self-signed certificate for 127.0.0.1, and a client that trusts it alone. */
    private record TestTls(TlsConfig server, TlsConfig client) {
        static TestTls create() {
            Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
            return new TestTls(TlsConfig.server(identity),
                    TlsConfig.clientTrusting(List.of(identity.certificate()), "the test's certificate"));
        }
    }

    /**
     * Starts a server and connects {@link #client} to it, past the hello; each message received
     * completes the future the returned reference holds at the time.
     */
    private AtomicReference<CompletableFuture<Message>> connectedClientAnsweringInto() throws Exception {
        server = provider.createServer(ServerOptions.builder().build());
        server.start(new RecordingServerHandler());
        client = new MinaClient(ClientOptions.builder().port(server.localAddress().getPort()).build());
        AtomicReference<CompletableFuture<Message>> pending = new AtomicReference<>(new CompletableFuture<>());
        client.connect(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                pending.get().complete(message);
            }

            @Override
            public void closed(Throwable cause) {
            }
        });
        client.send(Hello.of(Codecs.defaultCodec().name(), "unit"));
        assertTrue(pending.get().get(10, TimeUnit.SECONDS) instanceof HelloReply);
        return pending;
    }

    /** One echo call by a caller that reads its own answer, as the client library's callers do. */
    private void callAndReadOwnAnswer(AtomicReference<CompletableFuture<Message>> pending, long id) throws Exception {
        CompletableFuture<Message> answer = new CompletableFuture<>();
        pending.set(answer);
        client.send(new Request(id, new Call.Echo(Value.of(id))));
        client.readWhileWaiting(answer, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
        assertEquals(new Response(id, new Result.Echoed(Value.of(id))), answer.get(10, TimeUnit.SECONDS));
    }

    private static Message readFrame(DataInputStream in, ConnectionCodec codec) throws Exception {
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        Message message = codec.decode(body, 0, length);
        assertNotNull(message);
        return message;
    }
}
