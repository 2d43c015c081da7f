package org.salgate.transport.rmi;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.rmi.AccessException;
import java.rmi.server.UID;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input of one connection to an agent, as RMI reads it: it follows JRMP (chapter 10 of the
 * Java RMI specification) message by message and refuses every call to the agent's registry but
 * {@code lookup} and {@code list} before RMI reads it ({@link AccessException} to the caller, the
 * connection closed, the refusal logged).
 *
 * <p>Why here: the agent's registry has to be the JDK's (the only object at the registry's
 * well-known id), which lets every local process rebind the agent's name and so receive the next
 * client's hello and token; no public API changes that rule, and an exception the registry threw
 * would reach the caller wrapped.
 *
 * <p>Where a message starts: RMI reads a mark-supporting stream directly, a whole message at a time,
 * answering before it reads the next. So one starts after the transport header and the client's
 * endpoint, after a ping or DGC acknowledgement (fixed lengths), and after a call once RMI writes
 * back ({@link #watching}). Anything else closes the connection.
 */
final class RegistryGuard extends InputStream {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryGuard.class);

    /** What the refused caller is told. */
    static final String REFUSAL = "this salgate agent's RMI registry serves lookups only: the agent binds its own"
            + " object in it and nobody can bind, rebind or unbind there; bind your objects in a registry of your own";

    /** The registry's operations in the numbering of RMI 1.1 stubs (which the JDK's registry stub uses). */
    private static final String[] REGISTRY_OPERATIONS = {"bind", "list", "lookup", "rebind", "unbind"};
    /** The registry interface's hash that 1.1 stub calls carry. */
    private static final long REGISTRY_INTERFACE_HASH = 4905912898345647071L;
    /** The method hashes (Java RMI specification 8.3) that 1.2 stub calls carry instead, in the order above. */
    private static final long[] REGISTRY_METHOD_HASHES = {7583982177005850366L, 2571371476350237748L,
            -7538657168040752697L, -8381844669958460146L, 7305022919901907578L};
    /** The most bytes a call may take to complete its header: a JDK client takes 41. */
    private static final int MAX_CALL_HEAD_BYTES = 1024;
    /** {@link #clear} for the rest of a call: anything until RMI answers. */
    private static final long TO_THE_ANSWER = Long.MAX_VALUE;

    private enum Stage { TRANSPORT_HEADER, CLIENT_ENDPOINT, MESSAGE }

    private final Socket socket;
    private final InputStream source;
    private final Refusals refusals;
    /** Bytes read from the socket and not yet by RMI: {@code buffer[start, end)}. */
    private final byte[] buffer = new byte[MAX_CALL_HEAD_BYTES];
    private final byte[] one = new byte[1];
    private int start;
    private int end;
    /** How many bytes RMI may read before the next one must be looked at. */
    private long clear;
    private Stage stage = Stage.TRANSPORT_HEADER;
    private volatile boolean answered;

    RegistryGuard(Socket socket, Refusals refusals) throws IOException {
        this.socket = socket;
        this.source = socket.getInputStream();
        this.refusals = refusals;
    }

    /** {@code out}, telling this guard when RMI writes: if a call was being read, the next byte starts a message. */
    OutputStream watching(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                answered = true;
                out.write(b, off, len);
            }
        };
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (clear == TO_THE_ANSWER && answered) {
            clear = 0;
        }
        while (clear == 0) {
            if (!inspect()) {
                return -1; // the peer hung up; RMI closes, or fails on the message it cut short
            }
        }
        int n = (int) Math.min(len, clear);
        if (start < end) {
            n = Math.min(n, end - start);
            System.arraycopy(buffer, start, b, off, n);
            start += n;
        } else if ((n = source.read(b, off, n)) < 0) {
            return -1;
        }
        clear = clear == TO_THE_ANSWER ? clear : clear - n;
        return n;
    }

    /** True, so that RMI reads this stream directly rather than through a buffer of its own (see above). */
    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int readlimit) {
        // RMI does not rewind a connection; nothing to remember
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Looks at the next piece of the protocol and clears it for RMI, or refuses it; false at the end of input. */
    private boolean inspect() throws IOException {
        System.arraycopy(buffer, start, buffer, 0, end - start);
        end -= start;
        start = 0;
        ByteBuffer head = ByteBuffer.wrap(buffer);
        if (stage == Stage.TRANSPORT_HEADER) { // "JRMI", version 2, stream or single-operation protocol
            if (!fill(7)) {
                return false;
            }
            int protocol = head.get(6);
            if (head.getInt(0) != 0x4a524d49 || head.getShort(4) != 2 || (protocol != 0x4b && protocol != 0x4c)) {
                throw shut("it does not speak the RMI protocol this agent serves");
            }
            clear = 7;
            stage = protocol == 0x4b ? Stage.CLIENT_ENDPOINT : Stage.MESSAGE;
        } else if (stage == Stage.CLIENT_ENDPOINT) { // its host (modified UTF-8) and port
            if (!fill(2)) {
                return false;
            }
            clear = 2 + Short.toUnsignedInt(head.getShort(0)) + Integer.BYTES;
            stage = Stage.MESSAGE;
        } else if (!fill(1)) {
            return false;
        } else if (head.get(0) == 0x52) { // a ping
            clear = 1;
        } else if (head.get(0) == 0x54) { // a DGC acknowledgement and its UID
            clear = 15;
        } else if (head.get(0) == 0x50) {
            String refused = refusedRegistryOperation(callHeader(head));
            if (refused != null) {
                refuse(refused);
            }
            answered = false;
            clear = TO_THE_ANSWER;
        } else {
            throw shut("it sent an RMI message of unknown type " + head.get(0));
        }
        return true;
    }

    /**
     * The header of the call at the start of the buffer: after its message byte and the object
     * stream's magic and version, 34 bytes of block data (the object id, operation and hash), which a
     * peer may split into blocks and resets as Java serialization allows.
     */
    private ByteBuffer callHeader(ByteBuffer head) throws IOException {
        need(5);
        if (head.getInt(1) != 0xaced0005) {
            throw shut("it sent a call that is not a Java object stream");
        }
        ByteBuffer header = ByteBuffer.allocate(34);
        int at = 5;
        while (header.hasRemaining()) {
            need(at + 1);
            int tag = buffer[at++];
            int length;
            if (tag == 0x79) { // TC_RESET
                continue;
            } else if (tag == 0x77) { // TC_BLOCKDATA
                need(at + 1);
                length = Byte.toUnsignedInt(buffer[at++]);
            } else if (tag == 0x7a) { // TC_BLOCKDATALONG
                need(at + Integer.BYTES);
                length = head.getInt(at);
                at += Integer.BYTES;
            } else {
                throw shut("it sent a call without the header every RMI call starts with");
            }
            int take = Math.min(Math.max(length, 0), header.remaining());
            need(at + take);
            header.put(buffer, at, take);
            at += take;
        }
        return header.flip();
    }

    /**
     * The registry operation a call header asks for when it is one that is refused, else null
     * (a lookup or list, or a call to any other object).
     */
    static String refusedRegistryOperation(ByteBuffer header) {
        if (header.getLong(0) != 0 || header.getInt(8) != 0 || header.getLong(12) != 0 || header.getShort(20) != 0) {
            return null; // not ObjID.REGISTRY_ID (number 0 in the well-known space)
        }
        int operation = header.getInt(22);
        long hash = header.getLong(26);
        if (operation >= 0) {
            if ((operation == 1 || operation == 2) && hash == REGISTRY_INTERFACE_HASH) {
                return null; // list, lookup
            }
            return operation < REGISTRY_OPERATIONS.length ? REGISTRY_OPERATIONS[operation] : "operation " + operation;
        }
        for (int i = 0; i < REGISTRY_METHOD_HASHES.length; i++) {
            if (hash == REGISTRY_METHOD_HASHES[i]) {
                return i == 1 || i == 2 ? null : REGISTRY_OPERATIONS[i];
            }
        }
        return "the method with hash " + hash;
    }

    /**
     * Tells the caller it was refused as RMI answers a call that threw (a return message whose object
     * stream holds the exception, each class followed by its empty code base annotation), reads
     * what is left of the call briefly (closing with unread input would reset the connection),
     * closes the connection and logs it; never returns normally.
     */
    private void refuse(String operation) throws IOException {
        refusals.refused(operation, peer());
        try {
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            reply.write(0x51); // a return
            try (ObjectOutputStream out = new ObjectOutputStream(reply) {
                @Override
                protected void annotateClass(Class<?> cl) throws IOException {
                    writeObject(null);
                }
            }) {
                out.writeByte(2); // an exceptional return
                new UID().write(out);
                AccessException refusal = new AccessException(REFUSAL);
                refusal.setStackTrace(new StackTraceElement[0]);
                out.writeObject(refusal);
            }
            socket.getOutputStream().write(reply.toByteArray());
            socket.getOutputStream().flush();
            socket.setSoTimeout(100);
            source.skip(64 * 1024);
        } catch (SocketTimeoutException quiet) {
            // the call is over
        } catch (IOException e) {
            LOG.debug("could not tell {} that it was refused: {}", peer(), e.toString());
        }
        throw shut("refused " + operation + " on the agent's RMI registry");
    }

    private IOException shut(String why) {
        LOG.debug("closed the RMI connection from {}: {}", peer(), why);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already broken
        }
        return new IOException("closed the connection: " + why);
    }

    private String peer() {
        return socket.getInetAddress() == null ? "an unknown address"
                : socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** Makes {@code buffer[0, n)} hold unread input, reading as needed; false at the end of input. */
    private boolean fill(int n) throws IOException {
        while (end < n) {
            int read = source.read(buffer, end, buffer.length - end);
            if (read < 0) {
                return false;
            }
            end += read;
        }
        return true;
    }

    private void need(int n) throws IOException {
        if (n > MAX_CALL_HEAD_BYTES) {
            throw shut("it sent a call whose header did not end within " + MAX_CALL_HEAD_BYTES + " bytes");
        }
        if (!fill(n)) {
            throw shut("it hung up within a call's header");
        }
    }

    /**
     * One agent's refused registry calls, counted and logged: the first of a burst at once, then
     * nothing while refusals of the same operation keep coming less than a second apart, and the
     * next line, after a quiet second (or a minute into an unbroken burst), says how many were left
     * out. A burst is one line however long each refusal takes on a loaded machine.
     */
    static final class Refusals {
        private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);
        private static final long MAX_SILENCE_NANOS = TimeUnit.MINUTES.toNanos(1);

        private final AtomicLong count = new AtomicLong();
        /** Per operation: when the last refusal came, when the last line went out, and how many were left out since. */
        private final Map<String, long[]> bursts = new HashMap<>();

        void refused(String operation, String peer) {
            count.incrementAndGet();
            long now = System.nanoTime();
            long leftOut;
            synchronized (bursts) {
                long[] burst = bursts.computeIfAbsent(operation, o -> new long[] {now - QUIET_NANOS, now, 0});
                boolean quiet = now - burst[0] >= QUIET_NANOS || now - burst[1] >= MAX_SILENCE_NANOS;
                burst[0] = now;
                if (!quiet) {
                    burst[2]++;
                    return;
                }
                burst[1] = now;
                leftOut = burst[2];
                burst[2] = 0;
            }
            LOG.warn("refused {} on the agent's RMI registry from {}: the registry serves lookups only, and only the"
                    + " agent binds in it{}", operation, peer,
                    leftOut == 0 ? "" : " (and " + leftOut + " more like it since the last such line)");
        }

        /** How many registry calls were refused. */
        long count() {
            return count.get();
        }
    }
}
