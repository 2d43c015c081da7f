package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;

/**
 * What hostile peers do to an agent on the http transport, driven over raw sockets on loopback: one
 * static method per attack, each bounded in connections, bytes and time, so that the tests of the
 * transport's bounds and a soak test can run the same ones. Nothing here reads what the agent sends
 * unless the attack needs it.
 */
final class HttpAttacks {

    /** The mask key of every frame sent here: any key is valid, and zero leaves the payload as it is. */
    private static final byte[] ZERO_MASK = new byte[4];
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int WRITE_CHUNK_BYTES = 64 * 1024;

    private HttpAttacks() {}

    /** What a flood on one connection achieved. */
    record Flood(long sent, boolean closedByAgent) {}

    // ------------------------------------------------------------------ HTTP

    /** A request line and headers, keep-alive, for the agent on {@code port}. */
    static String get(String path, int port) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
    }

    /**
     * Sends {@code request} again and again on one keep-alive connection for {@code duration},
     * never reading an answer.
     *
     * @return requests sent (written into the socket), and whether the agent closed the connection
     */
    static Flood pipelinedFlood(int port, String request, Duration duration) throws IOException, InterruptedException {
        byte[] batch = request.repeat(64).getBytes(StandardCharsets.US_ASCII);
        Socket socket = connect(port);
        AtomicLong sent = new AtomicLong();
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicBoolean closed = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = socket.getOutputStream();
                while (!stopping.get()) {
                    out.write(batch);
                    sent.addAndGet(64);
                }
            } catch (IOException e) {
                closed.set(!stopping.get());
            }
        }, "http-attack-pipelined-flood");
        writer.start();
        writer.join(duration.toMillis());
        stopping.set(true);
        socket.close(); // unblocks a write the agent does not read
        writer.join(5_000);
        return new Flood(sent.get(), closed.get());
    }

    /**
     * Opens {@code connections} connections, each sending the headers of a POST announcing
     * {@code announcedBytes} of JSON body and then {@code sentBytes} of it; the rest never comes.
     * Sending stops after {@code bound}.
     */
    static Peers unfinishedBodies(int port, int connections, long announcedBytes, int sentBytes, Duration bound)
            throws IOException, InterruptedException {
        Peers peers = Peers.open(port, connections);
        byte[] head = ("POST /api/sensors/DUMMY_0/commands/read HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nContent-Length: " + announcedBytes + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[sentBytes];
        Arrays.fill(body, (byte) ' ');
        peers.sendToEach(head, body, bound);
        return peers;
    }

    /**
     * Opens {@code connections} connections, each sending the headers of a POST announcing a body of
     * 1,000 bytes and then one byte of it a second for {@code duration}, or until the agent closes it.
     */
    static Peers slowBodies(int port, int connections, Duration duration) throws IOException, InterruptedException {
        Peers peers = Peers.open(port, connections);
        byte[] head = ("POST /api/sensors/DUMMY_0/commands/read HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        peers.sendToEach(head, new byte[0], Duration.ofSeconds(10));
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end && peers.open() > 0) {
            peers.poll(); // what the agent answered, before a write to a closed connection draws a reset
            peers.sendToEach(new byte[0], new byte[] {' '}, Duration.ofSeconds(1));
            Thread.sleep(1_000);
        }
        peers.poll();
        return peers;
    }

    /** Sends {@code request} bytes as they are on a new connection and reads until the agent closes it (at most 10 s). */
    static String exchange(int port, String request) throws IOException {
        try (Socket socket = connect(port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                int n;
                while ((n = socket.getInputStream().read(buffer)) >= 0) {
                    read.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                read.write("\n<still open after 10 s>".getBytes(StandardCharsets.US_ASCII));
            } catch (IOException reset) {
                // a reset after the answer is a close too
            }
            return read.toString(StandardCharsets.ISO_8859_1);
        }
    }

    // ------------------------------------------------------------------ WebSocket

    /** The HTTP answer to a WebSocket handshake with these extra header lines (each ending in CRLF); the socket stays open. */
    static String webSocketHandshake(Socket socket, int port, String extraHeaders) throws IOException {
        socket.getOutputStream().write(("GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** A new connection upgraded to the agent's WebSocket. */
    static Socket webSocket(int port) throws IOException {
        Socket socket = connect(port);
        String head = webSocketHandshake(socket, port, "");
        if (!head.startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("the agent refused the WebSocket handshake: " + head);
        }
        return socket;
    }

    /** A new WebSocket whose hello, with {@code token} ("" for none), the agent accepted. */
    static Socket greetedWebSocket(int port, String token) throws IOException {
        Socket socket = webSocket(port);
        ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        byte[] hello = codec.encode(new Hello(Hello.PROTOCOL_VERSION, Codecs.defaultCodec().name(), "attacker", token));
        OutputStream out = socket.getOutputStream();
        out.write(frameHeader(0x2, true, hello.length));
        out.write(hello);
        socket.setSoTimeout(10_000);
        Message reply;
        try {
            reply = codec.decode(readFrame(socket.getInputStream()));
        } catch (CodecException e) {
            socket.close();
            throw new IOException("the agent's answer to the hello is not a message: " + e.getMessage(), e);
        }
        if (!(reply instanceof HelloReply r) || !r.accepted()) {
            socket.close();
            throw new IOException("the agent did not accept the hello: " + reply);
        }
        return socket;
    }

    /**
     * Sends empty pings on a new WebSocket for {@code duration}, never reading the pongs.
     *
     * @return pings written into the socket, and whether the agent closed the connection
     */
    static Flood pingFlood(int port, Duration duration) throws IOException, InterruptedException {
        byte[] ping = frameHeader(0x9, true, 0);
        ByteBuffer batch = ByteBuffer.allocate(ping.length * 8192);
        while (batch.hasRemaining()) {
            batch.put(ping);
        }
        Socket socket = webSocket(port);
        AtomicLong sent = new AtomicLong();
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicBoolean closed = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = socket.getOutputStream();
                while (!stopping.get()) {
                    out.write(batch.array());
                    sent.addAndGet(8192);
                }
            } catch (IOException e) {
                closed.set(!stopping.get());
            }
        }, "http-attack-ping-flood");
        writer.start();
        writer.join(duration.toMillis());
        stopping.set(true);
        socket.close();
        writer.join(5_000);
        return new Flood(sent.get(), closed.get());
    }

    /**
     * Opens {@code sessions} WebSockets, each past the hello (with {@code token}), then sends on each
     * the header of a binary message of {@code announcedBytes} and {@code sentBytes} of it; the rest
     * never comes. Sending stops after {@code bound}.
     */
    static Peers partialFrames(int port, int sessions, int announcedBytes, int sentBytes, String token,
                               Duration bound) throws IOException, InterruptedException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            sockets.add(greetedWebSocket(port, token));
        }
        Peers peers = new Peers(sockets);
        peers.sendToEach(frameHeader(0x2, true, announcedBytes), new byte[sentBytes], bound);
        return peers;
    }

    /**
     * Sends, on a new WebSocket past the hello, the first fragment of a binary message and then
     * {@code fragments} empty continuation fragments, none of them the last; stops when the agent
     * closes the connection or after 20 s.
     *
     * @return the connection, to see what the agent did
     */
    static Socket emptyFragments(int port, int fragments, String token) throws IOException, InterruptedException {
        Socket socket = greetedWebSocket(port, token);
        byte[] continuation = frameHeader(0x0, false, 0);
        ByteArrayOutputStream all = new ByteArrayOutputStream(fragments * continuation.length + 16);
        all.write(frameHeader(0x2, false, 1));
        all.write(0);
        for (int i = 0; i < fragments; i++) {
            all.write(continuation);
        }
        Peers single = new Peers(List.of(socket));
        single.sendToEach(all.toByteArray(), new byte[0], Duration.ofSeconds(20));
        return socket;
    }

    /** The header of a masked client frame (mask key zero) with this opcode and payload length. */
    static byte[] frameHeader(int opcode, boolean fin, long length) {
        ByteBuffer header = ByteBuffer.allocate(14);
        header.put((byte) ((fin ? 0x80 : 0) | opcode));
        if (length <= 125) {
            header.put((byte) (0x80 | length));
        } else if (length <= 0xffff) {
            header.put((byte) (0x80 | 126)).putShort((short) length);
        } else {
            header.put((byte) (0x80 | 127)).putLong(length);
        }
        header.put(ZERO_MASK);
        return Arrays.copyOf(header.array(), header.position());
    }

    /** Reads one frame the agent sent (unmasked) and returns its payload. */
    static byte[] readFrame(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        in.readUnsignedByte();
        int length = in.readUnsignedByte() & 0x7f;
        long payload = length == 126 ? in.readUnsignedShort() : length == 127 ? in.readLong() : length;
        byte[] bytes = new byte[Math.toIntExact(payload)];
        in.readFully(bytes);
        return bytes;
    }

    /**
     * The close code of the close frame the agent sends next on a WebSocket, skipping other frames;
     * -1 if it closed without one, 0 if it is still open after {@code wait}.
     */
    static int closeCode(Socket socket, Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            while (true) {
                int first = in.readUnsignedByte();
                int length = in.readUnsignedByte() & 0x7f;
                long payload = length == 126 ? in.readUnsignedShort() : length == 127 ? in.readLong() : length;
                byte[] bytes = new byte[Math.toIntExact(payload)];
                in.readFully(bytes);
                if ((first & 0x0f) == 0x8) {
                    return bytes.length >= 2 ? ((bytes[0] & 0xff) << 8) | (bytes[1] & 0xff) : -1;
                }
            }
        } catch (SocketTimeoutException e) {
            return 0;
        } catch (IOException e) {
            return -1;
        }
    }

    static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
        return socket;
    }

    /**
     * Connections held open by an attack: what is sent to each, and what became of them. Closing
     * closes them all.
     */
    static final class Peers implements AutoCloseable {

        private final List<Socket> sockets;
        private final boolean[] closed;
        private final String[] answers;

        Peers(List<Socket> sockets) {
            this.sockets = List.copyOf(sockets);
            this.closed = new boolean[sockets.size()];
            this.answers = new String[sockets.size()];
        }

        static Peers open(int port, int connections) throws IOException {
            List<Socket> sockets = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                sockets.add(connect(port));
            }
            return new Peers(sockets);
        }

        /**
         * Writes {@code head} then {@code body} to each connection still open, 16 at a time; a
         * connection whose write fails, or that has not taken it all within {@code bound}, counts as
         * closed by the agent (the latter is closed here).
         */
        void sendToEach(byte[] head, byte[] body, Duration bound) throws InterruptedException {
            ExecutorService writers = Executors.newFixedThreadPool(Math.min(16, Math.max(1, sockets.size())));
            for (int i = 0; i < sockets.size(); i++) {
                int index = i;
                if (isClosed(index)) {
                    continue;
                }
                writers.execute(() -> {
                    try {
                        OutputStream out = sockets.get(index).getOutputStream();
                        out.write(head);
                        for (int offset = 0; offset < body.length; offset += WRITE_CHUNK_BYTES) {
                            out.write(body, offset, Math.min(WRITE_CHUNK_BYTES, body.length - offset));
                        }
                        out.flush();
                    } catch (IOException e) {
                        markClosed(index);
                    }
                });
            }
            writers.shutdown();
            if (!writers.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                writers.shutdownNow();
                close(); // unblocks the writes the agent does not read
                writers.awaitTermination(5, TimeUnit.SECONDS);
            }
        }

        /** Connections the agent has not closed, as far as this side has seen. */
        synchronized int open() {
            int open = 0;
            for (boolean c : closed) {
                open += c ? 0 : 1;
            }
            return open;
        }

        /**
         * Waits up to {@code wait} for the agent to close the connections, reading what it answers;
         * returns how many it closed by then.
         */
        int closedWithin(Duration wait) throws IOException {
            long end = System.nanoTime() + wait.toNanos();
            do {
                poll();
            } while (open() > 0 && System.nanoTime() < end);
            return sockets.size() - open();
        }

        /** Reads once what each open connection was sent, noting the first answer and the closed ones. */
        void poll() throws IOException {
            byte[] buffer = new byte[8192];
            for (int i = 0; i < sockets.size(); i++) {
                if (isClosed(i)) {
                    continue;
                }
                Socket socket = sockets.get(i);
                try {
                    socket.setSoTimeout(5);
                    int n = socket.getInputStream().read(buffer);
                    if (n < 0) {
                        markClosed(i);
                    } else if (answers[i] == null) {
                        answers[i] = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                    }
                } catch (SocketTimeoutException e) {
                    // still open
                } catch (IOException e) {
                    markClosed(i);
                }
            }
        }

        /** The first bytes each connection was sent, null for those sent nothing seen. */
        List<String> answers() {
            return Arrays.asList(answers.clone());
        }

        private synchronized boolean isClosed(int index) {
            return closed[index];
        }

        private synchronized void markClosed(int index) {
            closed[index] = true;
        }

        @Override
        public void close() {
            for (Socket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }
}
