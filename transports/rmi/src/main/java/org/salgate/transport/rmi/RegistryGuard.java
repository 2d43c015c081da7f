package org.salgate.transport.rmi;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketTimeoutException;
import java.rmi.AccessException;
import java.rmi.server.ObjID;
import java.rmi.server.UID;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A connection accepted by an agent, as RMI is given it (offering what RMI's connection handler uses
 * of a socket): no read waits longer than the agent's read timeout, and its input follows JRMP
 * (chapter 10 of the Java RMI specification) message by message, refusing every call to the
 * agent's registry but {@code lookup} and {@code list} before RMI reads it ({@link AccessException}
 * to the caller, the connection closed, the refusal logged). The registry has to be the JDK's (the
 * only object at the registry's well-known id), which lets every local process rebind the agent's
 * name, and no public API changes that.
 *
 * <p>RMI reads a mark-supporting stream directly, a whole message at a time, answering before it
 * reads the next. So a message starts after the transport header and the client's endpoint, after
 * a ping or DGC acknowledgement (fixed lengths), and after a call once RMI writes back. A call's
 * header is read as RMI reads it, with an {@link ObjectInputStream} (which takes its block data
 * however split) and {@link ObjID#read}. Anything else closes the connection.
 */
final class RegistryGuard extends Socket {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryGuard.class);
    /** A burst of refusals is logged as one line a second per operation, with how many it left out. */
    private static final RateLimitedLog REFUSALS = new RateLimitedLog(LOG, Level.WARN);

    /** What the refused caller is told. */
    static final String REFUSAL = "this salgate agent's RMI registry serves lookups only: the agent binds its own"
            + " object in it and nobody can bind, rebind or unbind there; bind your objects in a registry of your own";

    private static final ObjID REGISTRY = new ObjID(ObjID.REGISTRY_ID);
    /** The registry's operations in the numbering of RMI 1.1 stubs (which the JDK's registry stub uses). */
    private static final String[] REGISTRY_OPERATIONS = {"bind", "list", "lookup", "rebind", "unbind"};
    /** The registry interface's hash that 1.1 stub calls carry. */
    private static final long REGISTRY_INTERFACE_HASH = 4905912898345647071L;
    /** The method hashes (Java RMI specification 8.3) that 1.2 stub calls carry instead, in the order above. */
    private static final long[] REGISTRY_METHOD_HASHES = {7583982177005850366L, 2571371476350237748L,
            -7538657168040752697L, -8381844669958460146L, 7305022919901907578L};
    /** The most bytes read ahead of RMI to find where a message goes: a JDK client's call header takes 41. */
    private static final int MAX_HEAD_BYTES = 1024;
    /** {@link #clear} for the rest of a call: anything until RMI answers. */
    private static final long TO_THE_ANSWER = Long.MAX_VALUE;

    private enum Stage { TRANSPORT_HEADER, CLIENT_ENDPOINT, MESSAGE }

    private final Socket socket;
    /** The connection's input, marked where a piece of the protocol starts and reset once it was read ahead of RMI. */
    private final BufferedInputStream source;
    private final int readTimeoutMillis;
    /** Counts the refused calls. */
    private final AtomicLong refusals;
    private final InputStream input = new Input();
    private final OutputStream output;
    /** How many bytes RMI may read before the next one must be looked at. */
    private long clear;
    private Stage stage = Stage.TRANSPORT_HEADER;
    /** Whether RMI wrote since the call under way started: then the next byte starts a message. */
    private volatile boolean answered;

    RegistryGuard(Socket socket, int readTimeoutMillis, AtomicLong refusals) throws IOException {
        super((SocketImpl) null);
        this.socket = socket;
        this.source = new BufferedInputStream(socket.getInputStream(), MAX_HEAD_BYTES);
        this.readTimeoutMillis = readTimeoutMillis;
        this.refusals = refusals;
        socket.setSoTimeout(readTimeoutMillis);
        this.output = new FilterOutputStream(socket.getOutputStream()) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                answered = true;
                out.write(b, off, len);
            }
        };
    }

    @Override
    public InputStream getInputStream() {
        return input;
    }

    @Override
    public OutputStream getOutputStream() {
        return output;
    }

    /** Sets the read timeout, never above (nor, for 0, without) this connection's bound. */
    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        socket.setSoTimeout(timeout == 0 || timeout > readTimeoutMillis ? readTimeoutMillis : timeout);
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        socket.setTcpNoDelay(on);
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        socket.setKeepAlive(on);
    }

    @Override
    public InetAddress getInetAddress() {
        return socket.getInetAddress();
    }

    @Override
    public int getPort() {
        return socket.getPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private static int readOne(InputStream in) throws IOException {
        byte[] one = new byte[1];
        return in.read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    /** The input RMI reads: what {@link #inspect} cleared. */
    private final class Input extends InputStream {

        @Override
        public int read() throws IOException {
            return readOne(this);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (clear == TO_THE_ANSWER && answered) {
                clear = 0;
            }
            if (clear == 0 && !inspect()) {
                return -1; // the peer hung up; RMI closes, or fails on the message it cut short
            }
            int n = source.read(b, off, (int) Math.min(len, clear));
            if (n > 0 && clear != TO_THE_ANSWER) {
                clear -= n;
            }
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
    }

    /** Reads the head of the next piece of the protocol ahead of RMI and clears it, or refuses it; false at the end of input. */
    private boolean inspect() throws IOException {
        source.mark(MAX_HEAD_BYTES);
        Ahead ahead = new Ahead();
        DataInputStream in = new DataInputStream(ahead);
        try {
            if (stage == Stage.TRANSPORT_HEADER) { // "JRMI", version 2, stream or single-operation protocol
                int magic = in.readInt();
                int version = in.readShort();
                int protocol = in.readByte();
                if (magic != 0x4a524d49 || version != 2 || (protocol != 0x4b && protocol != 0x4c)) {
                    throw shut("it does not speak the RMI protocol this agent serves");
                }
                stage = protocol == 0x4b ? Stage.CLIENT_ENDPOINT : Stage.MESSAGE;
                clear = ahead.read;
            } else if (stage == Stage.CLIENT_ENDPOINT) { // its host and port
                in.readUTF();
                in.readInt();
                stage = Stage.MESSAGE;
                clear = ahead.read;
            } else {
                int type = in.readByte();
                if (type == 0x52) { // a ping
                    clear = 1;
                } else if (type == 0x54) { // a DGC acknowledgement and its UID
                    clear = 15;
                } else if (type == 0x50) {
                    ObjectInputStream call = new ObjectInputStream(ahead);
                    String refused = refusedRegistryOperation(ObjID.read(call), call.readInt(), call.readLong());
                    if (refused != null) {
                        refuse(refused);
                    }
                    answered = false;
                    clear = TO_THE_ANSWER;
                } else {
                    throw shut("it sent an RMI message of unknown type " + type);
                }
            }
        } catch (EOFException | StreamCorruptedException e) {
            if (ahead.read == 0) {
                return false;
            }
            throw shut("it sent a message RMI cannot read: " + e);
        }
        source.reset();
        return true;
    }

    /** The input ahead of RMI, from the mark, counted and bounded so that the mark holds. */
    private final class Ahead extends FilterInputStream {
        int read;

        Ahead() {
            super(source);
        }

        @Override
        public int read() throws IOException {
            return readOne(this);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (read == MAX_HEAD_BYTES) {
                throw shut("it sent a message whose header did not end within " + MAX_HEAD_BYTES + " bytes");
            }
            int n = in.read(b, off, Math.min(len, MAX_HEAD_BYTES - read));
            read += Math.max(n, 0);
            return n;
        }
    }

    /**
     * The registry operation a call asks for when it is one that is refused, else null (a lookup or
     * list, or a call to any other object).
     *
     * @param operation the operation number of a 1.1 stub, or negative for a 1.2 stub's method hash
     * @param hash the interface hash, or the method hash
     */
    static String refusedRegistryOperation(ObjID target, int operation, long hash) {
        if (!REGISTRY.equals(target)) {
            return null;
        }
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
        refusals.incrementAndGet();
        REFUSALS.log(operation, "refused {} on the agent's RMI registry from {}: the registry serves lookups only,"
                + " and only the agent binds in it", operation, peer());
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
            source.readNBytes(64 * 1024);
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
}
