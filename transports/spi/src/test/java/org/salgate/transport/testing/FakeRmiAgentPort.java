package org.salgate.transport.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile port where an RMI client expects an agent: it answers the bootstrap a client opens each
 * connection with (the seven bytes "SALGATE", after which the rmi transport's agent answers its
 * stub and closes) with whatever object stream the test built, then closes.
 */
public final class FakeRmiAgentPort implements AutoCloseable {

    private static final int BOOTSTRAP_BYTES = 7;

    private final ServerSocket server;
    private final byte[] reply;
    private final AtomicInteger answered = new AtomicInteger();
    private final Thread acceptor;

    /** Answers every bootstrap with {@code reply} (see {@link #returning}). */
    public FakeRmiAgentPort(byte[] reply) throws IOException {
        this.server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        this.reply = reply;
        this.acceptor = new Thread(this::acceptLoop, "fake-rmi-agent-port");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    /** {@code result} as an object stream, as an agent writes its stub. */
    public static byte[] returning(Object result) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(result);
        }
        return bytes.toByteArray();
    }

    /**
     * An object stream whose object declares a {@code long[declaredLength]} and ends there, as a
     * hostile peer sends it: about a hundred bytes that ask for {@code 8 * declaredLength}.
     */
    public static byte[] returningHugeArray(int declaredLength) throws IOException {
        int realLength = 1000;
        byte[] full = returning(new long[realLength]);
        int lengthAt = full.length - 8 * realLength - 4; // the array's length, then its elements, end the stream
        if (ByteBuffer.wrap(full).getInt(lengthAt) != realLength) {
            throw new IllegalStateException("the array's length is not where it was expected");
        }
        byte[] reply = Arrays.copyOf(full, lengthAt + 4);
        ByteBuffer.wrap(reply).putInt(lengthAt, declaredLength);
        return reply;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Bootstraps answered so far. */
    public int answered() {
        return answered.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread t = new Thread(() -> {
                try (s) {
                    answer(s);
                } catch (IOException e) {
                    // the client gave up
                }
            }, "fake-rmi-agent-port-connection");
            t.setDaemon(true);
            t.start();
        }
    }

    private void answer(Socket s) throws IOException {
        s.getInputStream().readNBytes(BOOTSTRAP_BYTES);
        s.getOutputStream().write(reply);
        s.getOutputStream().flush();
        answered.incrementAndGet();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
