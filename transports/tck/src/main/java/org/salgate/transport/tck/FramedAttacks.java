package org.salgate.transport.tck;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.Request;

/**
 * Attacks on the memory of an agent that serves a framed transport (Netty, MINA, xSocket, the
 * socket transport), from raw connections on loopback, each bounded in connections and in time so
 * that a test, or a soak that repeats them, knows what it costs. Every attack returns what it did;
 * none reads what the agent sends, which is the point.
 */
public final class FramedAttacks {

    /** Requests written per socket write of a flood as fast as the agent takes them. */
    private static final int REQUESTS_PER_WRITE = 256;
    /** Writes a second of a paced flood. */
    private static final int PACED_WRITES_PER_SECOND = 100;
    /** How long a flooding connection waits before it connects again once the agent closed it. */
    private static final long RECONNECT_PAUSE_MILLIS = 100;
    /** The receive buffer asked for on an attacker's socket: it never reads, so the kernel need hold little. */
    private static final int ATTACKER_RECEIVE_BUFFER = 4 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private FramedAttacks() {}

    /**
     * What an attack did.
     *
     * @param connections the connections it opened
     * @param closedByAgent those the agent closed (or reset) while the attack still used them
     * @param bytesSent what it wrote, frames and length prefixes
     */
    public record Outcome(int connections, int closedByAgent, long bytesSent) {}

    /**
     * The sensor list, which the agent answers on the connection's own thread: some 10 bytes asked
     * for, nearly 3 KB (20 sensors) answered.
     */
    public static final List<Call> LIST_SENSORS = List.of(new Call.ListSensors(false));

    /**
     * {@code connections} connections each send a hello, then {@link #LIST_SENSORS} requests as fast
     * as the agent takes them, never reading an answer; see
     * {@link #floodWithoutReading(int, int, List, int, Duration)}.
     */
    public static Outcome floodWithoutReading(int port, int connections, Duration duration)
            throws InterruptedException {
        return floodWithoutReading(port, connections, LIST_SENSORS, 0, duration);
    }

    /**
     * {@code connections} connections each send a hello, then requests ({@code calls} in turn),
     * {@code requestsPerSecond} a second each (0: as fast as the agent takes them), and never read an
     * answer. A connection the agent closes connects again after {@value #RECONNECT_PAUSE_MILLIS}
     * ms, until {@code duration} is over; then every connection is closed.
     */
    public static Outcome floodWithoutReading(int port, int connections, List<Call> calls, int requestsPerSecond,
                                              Duration duration) throws InterruptedException {
        int perWrite = requestsPerSecond == 0 ? REQUESTS_PER_WRITE
                : Math.max(1, Math.min(REQUESTS_PER_WRITE, requestsPerSecond / PACED_WRITES_PER_SECOND));
        long writeIntervalNanos = requestsPerSecond == 0 ? 0
                : TimeUnit.SECONDS.toNanos(1) * perWrite / requestsPerSecond;
        byte[] hello = frame(encoder().encode(Hello.of(Codecs.defaultCodec().name(), "flooder")));
        long deadline = System.nanoTime() + duration.toNanos();
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        AtomicLong sent = new AtomicLong();
        List<Socket> live = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Thread t = new Thread(() -> {
                byte[] requests = requests(calls, perWrite);
                while (System.nanoTime() < deadline) {
                    Socket socket = null;
                    try {
                        socket = connect(port);
                        live.add(socket);
                        opened.incrementAndGet();
                        OutputStream out = socket.getOutputStream();
                        out.write(hello);
                        sent.addAndGet(hello.length);
                        long next = System.nanoTime();
                        while (System.nanoTime() < deadline) {
                            out.write(requests);
                            sent.addAndGet(requests.length);
                            next += writeIntervalNanos;
                            long pause = next - System.nanoTime();
                            if (pause > 0) {
                                TimeUnit.NANOSECONDS.sleep(pause);
                            }
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (IOException e) {
                        if (System.nanoTime() < deadline) {
                            closed.incrementAndGet();
                            sleep(RECONNECT_PAUSE_MILLIS);
                        }
                    } finally {
                        if (socket != null) {
                            live.remove(socket);
                            closeQuietly(socket);
                        }
                    }
                }
            }, "flood-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        } finally {
            // A write the agent no longer takes blocks: closing the socket under it ends it.
            live.forEach(FramedAttacks::closeQuietly);
            threads.forEach(Thread::interrupt);
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        return new Outcome(opened.get(), closed.get(), sent.get());
    }

    /**
     * {@code connections} connections each send a hello, then announce a frame of
     * {@code frameBytes} and send {@code sentBytes} of it, so that the agent must keep those bytes
     * until the rest arrives, which it never does; they hold until {@link Hoard#close()}.
     */
    public static Hoard hoardUnfinishedFrames(int port, int connections, int frameBytes, int sentBytes)
            throws IOException {
        if (sentBytes >= frameBytes) {
            throw new IllegalArgumentException("an unfinished frame sends less than its " + frameBytes + " bytes, not "
                    + sentBytes);
        }
        byte[] hello = frame(encoder().encode(Hello.of(Codecs.defaultCodec().name(), "hoarder")));
        byte[] unfinished = ByteBuffer.allocate(Framing.LENGTH_FIELD_BYTES + sentBytes).putInt(frameBytes).array();
        Hoard hoard = new Hoard();
        try {
            for (int i = 0; i < connections; i++) {
                Socket socket = connect(port);
                hoard.sockets.add(socket);
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(hello);
                    out.write(unfinished);
                    hoard.sent += hello.length + unfinished.length;
                } catch (IOException e) {
                    hoard.closed.add(socket); // closed by the agent already
                }
            }
            return hoard;
        } catch (IOException | RuntimeException e) {
            hoard.close();
            throw e;
        }
    }

    /** {@link #hoardUnfinishedFrames} held for {@code hold}, then closed. */
    public static Outcome holdUnfinishedFrames(int port, int connections, int frameBytes, int sentBytes, Duration hold)
            throws IOException, InterruptedException {
        try (Hoard hoard = hoardUnfinishedFrames(port, connections, frameBytes, sentBytes)) {
            Thread.sleep(hold.toMillis());
            return hoard.outcome();
        }
    }

    /** Connections that hold unfinished frames. */
    public static final class Hoard implements AutoCloseable {
        private final List<Socket> sockets = new ArrayList<>();
        private final List<Socket> closed = new ArrayList<>();
        private long sent;

        private Hoard() {}

        /** Those the agent has closed by now, looking at each still open for a moment (1 s in all). */
        public int closedByAgent() throws IOException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            for (Socket socket : sockets) {
                if (closed.contains(socket)) {
                    continue;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (closedWithin(socket, Duration.ofMillis(Math.max(1, left)))) {
                    closed.add(socket);
                }
            }
            return closed.size();
        }

        /** What the hoard did so far. */
        public Outcome outcome() throws IOException {
            return new Outcome(sockets.size(), closedByAgent(), sent);
        }

        @Override
        public void close() {
            sockets.forEach(FramedAttacks::closeQuietly);
        }
    }

    /**
     * Whether the agent closes, within {@code wait}, a connection that announces a frame of
     * {@code frameBytes} before its hello and sends {@code sentBytes} of it.
     */
    public static boolean closedForAFrameBeforeTheHello(int port, int frameBytes, int sentBytes, Duration wait)
            throws IOException {
        try (Socket socket = connect(port)) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frameBytes);
            try {
                out.write(new byte[sentBytes]);
                out.flush();
            } catch (IOException e) {
                return true; // reset while writing: closed
            }
            return closedWithin(socket, wait);
        }
    }

    private static ConnectionCodec encoder() {
        return new ConnectionCodec(Codecs.defaultCodec());
    }

    /** {@code count} framed requests, {@code calls} in turn. */
    private static byte[] requests(List<Call> calls, int count) {
        ConnectionCodec codec = encoder();
        List<byte[]> frames = new ArrayList<>();
        int bytes = 0;
        for (int i = 0; i < count; i++) {
            byte[] framed = frame(codec.encode(new Request(i + 1, calls.get(i % calls.size()))));
            frames.add(framed);
            bytes += framed.length;
        }
        ByteBuffer all = ByteBuffer.allocate(bytes);
        frames.forEach(all::put);
        return all.array();
    }

    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(Framing.LENGTH_FIELD_BYTES + body.length).putInt(body.length).put(body).array();
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReceiveBufferSize(ATTACKER_RECEIVE_BUFFER);
            socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /** Whether the peer closed {@code socket} within {@code wait}, reading and dropping what it sent meanwhile. */
    private static boolean closedWithin(Socket socket, Duration wait) throws IOException {
        if (socket.isClosed()) {
            return true;
        }
        socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
        return RawConnection.closedByPeer(socket);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
