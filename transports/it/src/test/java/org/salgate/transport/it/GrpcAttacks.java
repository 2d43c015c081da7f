package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.wire.proto.WireProto;

/**
 * Hostile peers of the gRPC transport, one static method per attack, each bounded in what it sends
 * and in time, so that the hostile-stream tests and a soak test can run them against an agent. Each
 * speaks HTTP/2 frame by frame through a {@link GrpcRawConnection} (or raw bytes) and reports what
 * the agent did about it; the caller measures the agent.
 */
final class GrpcAttacks {

    /** A dummy sensor of the agent's default platform, and its command of readings of a chosen size. */
    static final String SENSOR = "DUMMY_1";
    static final String PAYLOAD_COMMAND = "payload";

    /** How much body one write of an attacker carries. */
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final ByteBuf CHUNK = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[CHUNK_BYTES]));
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private GrpcAttacks() {
    }

    /** How the calls of an attack ended, by outcome ({@link GrpcRawConnection.Call#outcome()}). */
    static Map<String, Integer> outcomes(List<GrpcRawConnection.Call> calls) {
        Map<String, Integer> counts = new TreeMap<>();
        for (GrpcRawConnection.Call call : calls) {
            counts.merge(call.outcome(), 1, Integer::sum);
        }
        return counts;
    }

    // ------------------------------------------------------------------ unfinished messages

    /**
     * What became of {@link #unfinishedMessages}.
     *
     * @param bytesSent body bytes the agent took (written to the socket) over all streams
     * @param outcomes how the calls ended ("open" for those the agent left open)
     * @param closedByAgent whether the agent closed the connection
     */
    record UnfinishedMessages(int streams, long bytesSent, Map<String, Integer> outcomes, boolean closedByAgent,
                              Duration took) {
    }

    /**
     * Opens {@code streams} calls of {@code path} on one connection, each sending the prefix of a
     * message of {@code declaredBytes} and then {@code bytesPerStream} (fewer) of its body, never
     * finishing it: a peer that makes the agent hold messages that will never be whole. Stops once
     * every stream has sent its bytes or been ended by the agent, or after {@code bound}; then holds
     * the connection open for {@code hold} (the agent holding what it took), and closes it.
     *
     * @param token the bearer token in the calls' metadata, or null for none
     */
    static UnfinishedMessages unfinishedMessages(int port, String path, String token, int streams, int declaredBytes,
                                                 long bytesPerStream, Duration bound, Duration hold)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        AtomicLong sent = new AtomicLong();
        List<GrpcRawConnection.Call> calls = new ArrayList<>();
        List<CompletableFuture<Void>> pumps = new ArrayList<>();
        try (GrpcRawConnection connection = GrpcRawConnection.open(port, CONNECT_TIMEOUT)) {
            for (int i = 0; i < streams; i++) {
                GrpcRawConnection.Call call = connection.call(path, token);
                calls.add(call);
                call.send(GrpcRawConnection.messagePrefix(declaredBytes), false);
                CompletableFuture<Void> done = new CompletableFuture<>();
                pump(call, bytesPerStream, deadline, sent, done);
                pumps.add(done);
            }
            CompletableFuture<Void> all = CompletableFuture.allOf(pumps.toArray(CompletableFuture[]::new));
            long waitNanos = Math.max(0, deadline - System.nanoTime());
            try {
                all.get(waitNanos, TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                // the bound passed: report what was sent until then
            }
            Thread.sleep(hold.toMillis());
            return new UnfinishedMessages(streams, sent.get(), outcomes(calls), !connection.isOpen(),
                    Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** Writes body chunks one after the other (each once the last is on the wire) until {@code remaining} are sent. */
    private static void pump(GrpcRawConnection.Call call, long remaining, long deadline, AtomicLong sent,
                             CompletableFuture<Void> done) {
        if (remaining <= 0 || call.isEnded() || System.nanoTime() - deadline > 0) {
            done.complete(null);
            return;
        }
        int n = (int) Math.min(CHUNK_BYTES, remaining);
        call.send(CHUNK.slice(0, n), false).addListener(f -> {
            if (f.isSuccess()) {
                sent.addAndGet(n);
                pump(call, remaining - n, deadline, sent, done);
            } else {
                done.complete(null);
            }
        });
    }

    // ------------------------------------------------------------------ unread streams

    /**
     * What became of {@link #unreadStreams}.
     *
     * @param opened calls the agent let the connection open
     * @param refused calls the connection could not open: the agent's limit of concurrent streams
     * @param maxConcurrentStreams what the agent announced (null: no limit)
     * @param outcomes how the opened calls ended
     * @param closedByAgent whether the agent closed the connection before the attacker did
     */
    record UnreadStreams(int opened, int refused, Long maxConcurrentStreams, Map<String, Integer> outcomes,
                         boolean closedByAgent, Duration took) {
    }

    /**
     * Asks for {@code calls} streams of {@value #SENSOR}'s {@value #PAYLOAD_COMMAND} readings of
     * {@code payloadBytes} on one connection, as fast as the agent can read them, and never reads
     * one: no flow-control credit is returned, so all the agent sends waits at the agent. At most
     * as many calls are open at once as the agent allows; one that ends makes room for the next.
     * Holds the connection for {@code hold} (or until the agent closes it), then closes it.
     */
    static UnreadStreams unreadStreams(int port, String token, int calls, int payloadBytes, Duration hold)
            throws IOException {
        long start = System.nanoTime();
        long deadline = start + hold.toNanos();
        byte[] setup = WireProto.SetupStream.newBuilder().setSensorId(SENSOR).setCommandId(PAYLOAD_COMMAND)
                .putArguments("size", Integer.toString(payloadBytes)).setIntervalMs(0).build().toByteArray();
        List<GrpcRawConnection.Call> opened = new ArrayList<>();
        int refused = 0;
        try (GrpcRawConnection connection = GrpcRawConnection.open(port, CONNECT_TIMEOUT)) {
            Long limit = connection.maxConcurrentStreams();
            int asked = 0;
            while (System.nanoTime() - deadline < 0 && connection.isOpen()) {
                long active = opened.stream().filter(c -> !c.isEnded()).count();
                if (asked < calls && (limit == null || active < limit)) {
                    GrpcRawConnection.Call call = connection.call(GrpcRawConnection.STREAM_SENSOR, token);
                    call.send(GrpcRawConnection.message(setup), true);
                    asked++;
                    try {
                        call.opened.get(5, TimeUnit.SECONDS);
                        opened.add(call);
                    } catch (Exception e) {
                        refused++;
                    }
                } else {
                    Await.sleep(20);
                }
            }
            boolean closedByAgent = !connection.isOpen();
            return new UnreadStreams(opened.size(), refused, limit, outcomes(opened), closedByAgent,
                    Duration.ofNanos(System.nanoTime() - start));
        }
    }

    // ------------------------------------------------------------------ rapid reset

    /**
     * What became of {@link #rapidReset}.
     *
     * @param streams streams opened and reset over all connections
     * @param connections connections used
     * @param goAways GOAWAY frames received, {@code enhanceYourCalm} of them with ENHANCE_YOUR_CALM
     * @param mostStreamsOnAConnection the most streams one connection opened before the agent closed it
     */
    record RapidReset(long streams, int connections, int goAways, int enhanceYourCalm, long mostStreamsOnAConnection,
                      Duration took) {
    }

    /**
     * The HTTP/2 rapid-reset attack (CVE-2023-44487): on one connection, opens calls of {@code path}
     * and resets each at once, as fast as the connection takes them, so that the server does the
     * work of starting each call while none is ever open long. When the agent closes the connection
     * the attacker opens another, up to {@code maxConnections}; it stops after {@code duration} or
     * {@code maxStreams} streams.
     */
    static RapidReset rapidReset(int port, String path, Duration duration, long maxStreams, int maxConnections)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long streams = 0;
        int connections = 0;
        int goAways = 0;
        int calm = 0;
        long most = 0;
        while (connections < maxConnections && streams < maxStreams && System.nanoTime() - deadline < 0) {
            GrpcRawConnection connection;
            try {
                connection = GrpcRawConnection.open(port, CONNECT_TIMEOUT);
            } catch (IOException e) {
                break; // the agent no longer accepts: the caller sees it in what was reached
            }
            connections++;
            try (connection) {
                Burst burst = new Burst(connection, path, deadline, maxStreams - streams);
                connection.onEventLoop(burst);
                burst.done.join();
                streams += burst.streams;
                most = Math.max(most, burst.streams);
                GrpcRawConnection.GoAway goAway = connection.goAway().getNow(null);
                if (goAway == null) {
                    // the agent may still be sending it as the connection closes
                    try {
                        goAway = connection.goAway().get(200, TimeUnit.MILLISECONDS);
                    } catch (Exception e) {
                        goAway = null;
                    }
                }
                if (goAway != null) {
                    goAways++;
                    calm += goAway.enhanceYourCalm() ? 1 : 0;
                }
            }
        }
        return new RapidReset(streams, connections, goAways, calm, most, Duration.ofNanos(System.nanoTime() - start));
    }

    /** Opens and resets streams on the connection's event loop, a batch at a time, until told to stop. */
    private static final class Burst implements Runnable {
        private static final int BATCH = 256;
        private static final long PAUSE_MICROS = 500;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final GrpcRawConnection connection;
        private final String path;
        private final long deadline;
        private final long max;
        /** Written on the event loop, read after {@link #done}. */
        long streams;

        Burst(GrpcRawConnection connection, String path, long deadline, long max) {
            this.connection = connection;
            this.path = path;
            this.deadline = deadline;
            this.max = max;
        }

        @Override
        public void run() {
            if (!connection.isOpen() || connection.goAway().isDone() || streams >= max
                    || System.nanoTime() - deadline > 0) {
                done.complete(null);
                return;
            }
            io.netty.channel.ChannelFuture last = null;
            for (int i = 0; i < BATCH && streams < max; i++) {
                GrpcRawConnection.Call call = connection.newCall();
                connection.write(connection.headersFrame(call, path, null));
                last = connection.write(call.resetFrame());
                connection.forget(call);
                streams++;
            }
            connection.flush();
            // The next batch once this one is on the wire, and after a moment to read: a server that
            // closes the connection with bytes of ours unread resets it, and the reset would drop its GOAWAY.
            last.addListener(f -> connection.schedule(this, PAUSE_MICROS));
        }
    }

    // ------------------------------------------------------------------ silent connections

    /**
     * Opens an HTTP/2 connection (preface and SETTINGS, as a client does) that opens no call and
     * sends nothing more; returns how long the agent took to close it, or null if it had not within
     * {@code bound}.
     */
    static Duration idleConnection(int port, Duration bound) throws IOException {
        long start = System.nanoTime();
        try (GrpcRawConnection connection = GrpcRawConnection.open(port, CONNECT_TIMEOUT)) {
            connection.closed().get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return Duration.ofNanos(System.nanoTime() - start);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        } catch (Exception e) {
            throw new IOException("the idle connection failed: " + e, e);
        }
    }

    /**
     * Opens a TCP connection that never sends a byte, not even the HTTP/2 preface; returns how long
     * the agent took to close it, or null if it had not within {@code bound}.
     */
    static Duration silentSocket(int port, Duration bound) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) CONNECT_TIMEOUT.toMillis());
            socket.setSoTimeout((int) bound.toMillis());
            try {
                while (socket.getInputStream().read() >= 0) {
                    // the agent's SETTINGS, if it sends them before the preface: keep waiting for the end
                }
            } catch (SocketTimeoutException e) {
                return null;
            } catch (IOException e) {
                // a reset is a close too
            }
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    // ------------------------------------------------------------------ bad prefaces

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Inputs that are not an HTTP/2 connection's start, each something a scanner or a confused client sends. */
    static List<byte[]> badPrefaceInputs() {
        List<byte[]> inputs = new ArrayList<>();
        inputs.add("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        inputs.add("PRI * HTTP/1.1\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        inputs.add(new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03, 0x03,
                0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}); // TLS
        inputs.add(new byte[64]);
        inputs.add("SSH-2.0-OpenSSH_9.6\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] pseudoRandom = new byte[200];
        for (int i = 0; i < pseudoRandom.length; i++) {
            pseudoRandom[i] = (byte) (i * 131 + 17);
        }
        inputs.add(pseudoRandom);
        // the preface, then a SETTINGS frame whose length is not a multiple of 6
        inputs.add(concat(PREFACE, new byte[] {0, 0, 5, 4, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5}));
        // the preface, then a frame on stream 0 of a type that must carry a stream (DATA)
        inputs.add(concat(PREFACE, new byte[] {0, 0, 4, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}));
        return inputs;
    }

    /**
     * Sends each of {@link #badPrefaceInputs()} on a connection of its own and waits for the agent
     * to close it; returns how many it closed within {@code bound} each.
     */
    static int badPrefaces(int port, Duration bound) throws IOException {
        int closed = 0;
        for (byte[] input : badPrefaceInputs()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), (int) CONNECT_TIMEOUT.toMillis());
                socket.setSoTimeout((int) bound.toMillis());
                OutputStream out = socket.getOutputStream();
                out.write(input);
                out.flush();
                InputStream in = socket.getInputStream();
                try {
                    while (in.read() >= 0) {
                        // SETTINGS, GOAWAY: read to the end
                    }
                    closed++;
                } catch (SocketTimeoutException e) {
                    // not closed in time: counted out
                } catch (IOException e) {
                    closed++; // reset
                }
            }
        }
        return closed;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
