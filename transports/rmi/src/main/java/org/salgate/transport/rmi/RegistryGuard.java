package org.salgate.transport.rmi;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.rmi.AccessException;
import java.rmi.server.UID;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The input of one connection to an agent, as RMI reads it. It follows RMI's wire protocol (JRMP,
 * chapter 10 of the Java RMI specification) message by message and refuses every call to the
 * agent's registry but {@code lookup} and {@code list} before RMI reads a byte of it: the caller
 * gets an {@link AccessException}, the connection is closed and the refusal is logged.
 *
 * <p>Why here: the agent's registry has to be the JDK's, the only object RMI serves at the
 * registry's well-known object id, and it lets every process on the machine bind, rebind and
 * unbind (it only checks that the caller's address is local). A process that rebinds the agent's
 * name would get the next client's hello, token and all; one that unbinds it would keep every
 * client out until the agent restarts. The agent binds its object in-process, never over a
 * connection, so no caller needs those calls.
 *
 * <p>How it knows where a message starts: a stream that supports mark is read by RMI directly,
 * byte for byte as each message needs it, without a buffer of RMI's in between; RMI reads a whole
 * message, answers it, and only then reads the next. So a message starts after the transport
 * header and the client's endpoint, after a ping or a DGC acknowledgement (both of fixed length),
 * and after a call at the point where RMI writes anything back ({@link #answered}), even when it
 * answers a call it could not read to the end. A call starts with its header in block data (the
 * object id, operation and hash), which is read here before RMI sees it. Anything that is not
 * this protocol closes the connection. One thread (RMI's for the connection) reads and answers.
 */
final class RegistryGuard extends InputStream {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryGuard.class);

    private static final int MAGIC = 0x4a524d49; // "JRMI"
    private static final short VERSION = 2;
    private static final int STREAM_PROTOCOL = 0x4b;
    private static final int SINGLE_OP_PROTOCOL = 0x4c;
    private static final int TRANSPORT_HEADER_BYTES = 7; // magic, version, protocol
    private static final int CALL = 0x50;
    private static final int RETURN = 0x51;
    private static final int PING = 0x52;
    private static final int DGC_ACK = 0x54;
    private static final int UID_BYTES = 14;
    private static final byte EXCEPTIONAL_RETURN = 2;

    /** The Java serialization stream header (magic and version) that starts each call's object stream. */
    private static final int OBJECT_STREAM_HEADER = 0xaced0005;
    private static final int TC_BLOCKDATA = 0x77;
    private static final int TC_RESET = 0x79;
    private static final int TC_BLOCKDATALONG = 0x7a;
    /** A call's header in block data: the object id (8, and a UID of 4 + 8 + 2), operation (4) and hash (8). */
    private static final int CALL_HEADER_BYTES = 34;
    /** The most bytes a call may take to complete its header: a JDK client takes 41. */
    private static final int MAX_CALL_HEAD_BYTES = 1024;

    /** The registry's operations in the numbering of RMI 1.1 stubs (which the JDK's registry stub uses). */
    private static final String[] REGISTRY_OPERATIONS = {"bind", "list", "lookup", "rebind", "unbind"};
    private static final int LIST = 1;
    private static final int LOOKUP = 2;
    /** The registry interface's hash that 1.1 stub calls carry. */
    private static final long REGISTRY_INTERFACE_HASH = 4905912898345647071L;
    /** The method hashes (Java RMI specification 8.3) that 1.2 stub calls carry instead, in the order above. */
    private static final long[] REGISTRY_METHOD_HASHES = {7583982177005850366L, 2571371476350237748L,
            -7538657168040752697L, -8381844669958460146L, 7305022919901907578L};

    /** What the refused caller is told. */
    static final String REFUSAL = "this salgate agent's RMI registry serves lookups only: the agent binds its own"
            + " object in it and nobody can bind, rebind or unbind there; bind your objects in a registry of your own";
    /** How long a refused caller's connection is read for the rest of its call, so closing it does not reset it. */
    private static final int DRAIN_MILLIS = 100;
    private static final int MAX_DRAIN_BYTES = 64 * 1024;

    /** {@link #clear} for the rest of a call: anything until RMI answers. */
    private static final long TO_THE_ANSWER = Long.MAX_VALUE;

    private enum Stage { TRANSPORT_HEADER, CLIENT_ENDPOINT, MESSAGE, CALL_BODY }

    private final Socket socket;
    private final InputStream source;
    private final Refusals refusals;
    /** Bytes read from the socket and not yet by RMI: {@code buffer[start, end)}. */
    private final byte[] buffer = new byte[2 * MAX_CALL_HEAD_BYTES];
    private final byte[] one = new byte[1];
    private int start;
    private int end;
    /** How many bytes RMI may read before the next one must be looked at. */
    private long clear;
    private Stage stage = Stage.TRANSPORT_HEADER;
    private volatile boolean answered;

    /**
     * @param socket the accepted (plain or TLS) socket, read here and answered on when a call is refused
     * @param refusals where refused calls are counted and logged
     */
    RegistryGuard(Socket socket, Refusals refusals) throws IOException {
        this.socket = socket;
        this.source = socket.getInputStream();
        this.refusals = refusals;
    }

    /** RMI wrote on the connection: if a call was being read, the next byte starts a message. */
    void answered() {
        answered = true;
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (stage == Stage.CALL_BODY && answered) {
            stage = Stage.MESSAGE;
            clear = 0;
        }
        try {
            while (clear == 0) {
                inspect();
            }
        } catch (EOFException e) {
            return -1; // the peer hung up; RMI closes, or fails on the message it cut short
        }
        int max = (int) Math.min(len, clear);
        int n;
        if (start < end) {
            n = Math.min(max, end - start);
            System.arraycopy(buffer, start, b, off, n);
            start += n;
        } else {
            n = source.read(b, off, max);
            if (n < 0) {
                return -1;
            }
        }
        if (clear != TO_THE_ANSWER) {
            clear -= n;
        }
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(end - start, clear);
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
    public void reset() throws IOException {
        throw new IOException("an RMI connection cannot be rewound");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Looks at the next piece of the protocol and clears it for RMI, or refuses it. */
    private void inspect() throws IOException {
        switch (stage) {
            case TRANSPORT_HEADER -> {
                fill(TRANSPORT_HEADER_BYTES);
                int protocol = unsignedByteAt(6);
                if (intAt(0) != MAGIC || shortAt(4) != VERSION
                        || (protocol != STREAM_PROTOCOL && protocol != SINGLE_OP_PROTOCOL)) {
                    throw shut("it does not speak the RMI protocol this agent serves");
                }
                clear = TRANSPORT_HEADER_BYTES;
                stage = protocol == STREAM_PROTOCOL ? Stage.CLIENT_ENDPOINT : Stage.MESSAGE;
            }
            case CLIENT_ENDPOINT -> {
                // the client's host (modified UTF-8) and port, sent once RMI acknowledged the protocol
                fill(2);
                clear = 2 + (((buffer[start] & 0xFF) << 8) | (buffer[start + 1] & 0xFF)) + Integer.BYTES;
                stage = Stage.MESSAGE;
            }
            case MESSAGE -> {
                fill(1);
                int message = unsignedByteAt(0);
                if (message == PING) {
                    clear = 1;
                } else if (message == DGC_ACK) {
                    clear = 1 + UID_BYTES;
                } else if (message == CALL) {
                    inspectCall();
                    answered = false;
                    stage = Stage.CALL_BODY;
                    clear = TO_THE_ANSWER;
                } else {
                    throw shut("it sent an RMI message of unknown type " + message);
                }
            }
            case CALL_BODY -> throw new IllegalStateException("the rest of a call is never inspected");
        }
    }

    /**
     * Reads the head of the call at the start of the buffer (its message byte, object stream
     * header and call header, which a peer may split into blocks and resets as Java
     * serialization allows) and refuses it when it changes the registry.
     */
    private void inspectCall() throws IOException {
        fillHead(1 + Integer.BYTES);
        if (intAt(1) != OBJECT_STREAM_HEADER) {
            throw shut("it sent a call that is not a Java object stream");
        }
        ByteBuffer header = ByteBuffer.allocate(CALL_HEADER_BYTES);
        int at = 1 + Integer.BYTES;
        while (header.hasRemaining()) {
            fillHead(at + 1);
            int tag = unsignedByteAt(at++);
            int length;
            if (tag == TC_RESET) {
                continue;
            } else if (tag == TC_BLOCKDATA) {
                fillHead(at + 1);
                length = unsignedByteAt(at++);
            } else if (tag == TC_BLOCKDATALONG) {
                fillHead(at + Integer.BYTES);
                length = intAt(at);
                at += Integer.BYTES;
                if (length < 0) {
                    throw shut("it sent a call with a negative block length");
                }
            } else {
                throw shut("it sent a call without the header every RMI call starts with");
            }
            int take = Math.min(length, header.remaining());
            fillHead(at + take);
            header.put(buffer, start + at, take);
            at += take;
        }
        header.flip();
        String refused = refusedRegistryOperation(header);
        if (refused != null) {
            refuse(refused);
        }
    }

    /**
     * The registry operation a call header asks for when it is one that is refused, else null
     * (a lookup or list, or a call to any other object).
     */
    static String refusedRegistryOperation(ByteBuffer header) {
        long objectNumber = header.getLong(0);
        int unique = header.getInt(8);
        long time = header.getLong(12);
        short count = header.getShort(20);
        if (objectNumber != 0 || unique != 0 || time != 0 || count != 0) {
            return null; // not ObjID.REGISTRY_ID (number 0 in the well-known space)
        }
        int operation = header.getInt(22);
        long hash = header.getLong(26);
        if (operation >= 0) {
            if ((operation == LIST || operation == LOOKUP) && hash == REGISTRY_INTERFACE_HASH) {
                return null;
            }
            return operation < REGISTRY_OPERATIONS.length ? REGISTRY_OPERATIONS[operation] : "operation " + operation;
        }
        for (int i = 0; i < REGISTRY_METHOD_HASHES.length; i++) {
            if (hash == REGISTRY_METHOD_HASHES[i]) {
                return i == LIST || i == LOOKUP ? null : REGISTRY_OPERATIONS[i];
            }
        }
        return "the method with hash " + hash;
    }

    /** Tells the caller it was refused, closes the connection and logs it; never returns normally. */
    private void refuse(String operation) throws IOException {
        String peer = peer();
        refusals.refused(operation, peer);
        try {
            answerRefused();
        } finally {
            closeQuietly();
        }
        throw new IOException("refused " + operation + " on the agent's RMI registry from " + peer);
    }

    /**
     * Answers the call as RMI answers one that threw: a return message whose object stream holds
     * the exception, each class followed by its (empty) code base annotation.
     */
    private void answerRefused() {
        try {
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            reply.write(RETURN);
            try (ObjectOutputStream out = new AnnotatedStream(reply)) {
                out.writeByte(EXCEPTIONAL_RETURN);
                new UID().write(out);
                AccessException refusal = new AccessException(REFUSAL);
                refusal.setStackTrace(new StackTraceElement[0]);
                out.writeObject(refusal);
            }
            OutputStream out = socket.getOutputStream();
            out.write(reply.toByteArray());
            out.flush();
            drain();
        } catch (IOException e) {
            LOG.debug("could not tell {} that it was refused: {}", peer(), e.toString());
        }
    }

    /** Reads what is left of the refused call, briefly: a socket closed with unread input resets the connection. */
    private void drain() throws IOException {
        socket.setSoTimeout(DRAIN_MILLIS);
        byte[] skip = new byte[4096];
        long drained = 0;
        try {
            int n;
            while (drained < MAX_DRAIN_BYTES && (n = source.read(skip)) > 0) {
                drained += n;
            }
        } catch (SocketTimeoutException quiet) {
            // the call is over
        }
    }

    private IOException shut(String why) {
        LOG.debug("closed the RMI connection from {}: {}", peer(), why);
        closeQuietly();
        return new IOException("closed the connection: " + why);
    }

    private void closeQuietly() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already broken
        }
    }

    private String peer() {
        return socket.getInetAddress() == null ? "an unknown address"
                : socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** Makes {@code buffer[start, start + n)} hold unread input, reading as needed. */
    private void fill(int n) throws IOException {
        if (start + n > buffer.length) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        while (end - start < n) {
            int read = source.read(buffer, end, buffer.length - end);
            if (read < 0) {
                throw new EOFException();
            }
            end += read;
        }
    }

    private void fillHead(int n) throws IOException {
        if (n > MAX_CALL_HEAD_BYTES) {
            throw shut("it sent a call whose header did not end within " + MAX_CALL_HEAD_BYTES + " bytes");
        }
        fill(n);
    }

    private int unsignedByteAt(int at) {
        return buffer[start + at] & 0xFF;
    }

    private int intAt(int at) {
        return ByteBuffer.wrap(buffer, start + at, Integer.BYTES).getInt();
    }

    private short shortAt(int at) {
        return ByteBuffer.wrap(buffer, start + at, Short.BYTES).getShort();
    }

    /** An object stream as RMI writes one: every class is followed by its code base, here none. */
    private static final class AnnotatedStream extends ObjectOutputStream {
        AnnotatedStream(OutputStream out) throws IOException {
            super(out);
        }

        @Override
        protected void annotateClass(Class<?> cl) throws IOException {
            writeObject(null);
        }

        @Override
        protected void annotateProxyClass(Class<?> cl) throws IOException {
            writeObject(null);
        }
    }

    /** One agent's refused registry calls: counted, and logged at most once a second per operation. */
    static final class Refusals {
        private final RateLimitedLog log = new RateLimitedLog(LOG, Level.WARN);
        private final AtomicLong count = new AtomicLong();

        void refused(String operation, String peer) {
            count.incrementAndGet();
            log.log("registry " + operation, "refused {} on the agent's RMI registry from {}: the registry serves"
                    + " lookups only, and only the agent binds in it", operation, peer);
        }

        /** How many registry calls were refused. */
        long count() {
            return count.get();
        }
    }
}
