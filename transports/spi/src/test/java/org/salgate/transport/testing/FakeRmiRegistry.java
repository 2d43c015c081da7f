package org.salgate.transport.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile RMI registry: it speaks just enough of RMI's wire protocol (JRMP, stream protocol) to
 * answer the first call on each connection, a lookup, with the bytes it was given: a normal return
 * whose result is whatever object stream the test built.
 */
public final class FakeRmiRegistry implements AutoCloseable {

    private static final int MAGIC = 0x4a524d49; // "JRMI"
    private static final int STREAM_PROTOCOL = 0x4b;
    private static final int PROTOCOL_ACK = 0x4e;
    private static final int CALL = 0x50;
    private static final int RETURN = 0x51;
    private static final int NORMAL_RETURN = 1;

    private final ServerSocket server;
    private final byte[] reply;
    private final AtomicInteger answered = new AtomicInteger();
    private final Thread acceptor;

    /** Answers every lookup with {@code reply}, the object stream after the return header (see {@link #returning}). */
    public FakeRmiRegistry(byte[] reply) throws IOException {
        this.server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        this.reply = reply;
        this.acceptor = new Thread(this::acceptLoop, "fake-rmi-registry");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    /**
     * The object stream of a normal return of {@code result}, as RMI marshals it: a stream header,
     * the return type, the return's unique id, then the result, each class descriptor followed by
     * its (empty) code base annotation.
     */
    public static byte[] returning(Object result) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes) {
            @Override
            protected void annotateClass(Class<?> cl) throws IOException {
                writeObject(null);
            }

            @Override
            protected void annotateProxyClass(Class<?> cl) throws IOException {
                writeObject(null);
            }
        }) {
            out.writeByte(NORMAL_RETURN);
            out.writeInt(1); // UID: unique, time, count
            out.writeLong(0);
            out.writeShort(0);
            out.writeObject(result);
        }
        return bytes.toByteArray();
    }

    /**
     * A normal return whose result declares a {@code long[declaredLength]} and ends there, as a
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

    /** Lookups answered so far. */
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
            }, "fake-rmi-registry-connection");
            t.setDaemon(true);
            t.start();
        }
    }

    private void answer(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        if (in.readInt() != MAGIC) {
            return;
        }
        in.readShort(); // version
        if (in.readByte() != STREAM_PROTOCOL) {
            return;
        }
        out.writeByte(PROTOCOL_ACK);
        out.writeUTF(s.getInetAddress().getHostAddress());
        out.writeInt(s.getPort());
        out.flush();
        in.readUTF(); // the client's host and port
        in.readInt();
        while (in.readUnsignedByte() != CALL) {
            // pings before the call
        }
        out.writeByte(RETURN);
        out.write(reply);
        out.flush();
        answered.incrementAndGet();
        // let the client read it all and hang up
        while (in.read() >= 0) {
            // the rest of the call
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
