package org.salgate.plugin.onewire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of owserver, the network server of OWFS, speaking its protocol: each message is a
 * header of six big-endian 32-bit integers (version, payload length, message type or return
 * value, control flags, size, offset) and a payload. A request's payload is a path ending in a
 * NUL byte; a reply's is the data read or the directory listed. A reply whose payload length is
 * -1 is owserver's "still working" ping, and the real reply follows it.
 *
 * <p>Every length a reply gives is checked against a bound before anything is read or allocated:
 * a reply larger than {@link #MAX_PAYLOAD} is a {@link ProtocolException}. The whole exchange,
 * pings included, ends within the timeout given at construction. The connection is kept between
 * requests when owserver grants persistence (the flag in its reply), and opened anew otherwise.
 * Not thread-safe: one protocol uses it from its lane. Public for {@code bench devices}, which sets
 * the agent's reads beside this client's alone.
 */
public final class Owserver implements AutoCloseable {

    static final int HEADER = 24;
    /** The largest payload a reply may carry: a directory of a large bus fits well within it. */
    static final int MAX_PAYLOAD = 65_536;
    /** The most data a read asks for: owserver's values are short text. */
    static final int MAX_READ = 8_192;

    static final int NOP = 1;
    static final int READ = 2;
    static final int DIR = 4;
    static final int PRESENCE = 6;
    static final int DIRALL = 7;

    /** Control flags: the request comes from a network client, and asks to keep the connection. */
    static final int FLAG_OWNET = 0x100;
    static final int FLAG_PERSIST = 0x04;

    private final String host;
    private final int port;
    private final int timeoutMs;
    private final boolean persistent;
    private Socket socket;

    /**
     * @param timeoutMs how long a connection or a whole exchange may take
     * @param persistent whether to ask owserver to keep the connection between requests
     */
    public Owserver(String host, int port, int timeoutMs, boolean persistent) {
        this.host = host;
        this.port = port;
        this.timeoutMs = timeoutMs;
        this.persistent = persistent;
    }

    /** A reply's header and payload; {@code ret} negative is owserver's error, {@code -errno}. */
    record Reply(int version, int ret, int flags, int size, int offset, byte[] payload) {

        /** The data of a read: the payload's first {@code size} bytes. */
        byte[] data() throws ProtocolException {
            if (size < 0 || size > payload.length) {
                throw new ProtocolException("owserver's reply says " + size + " bytes of data in a payload of "
                        + payload.length);
            }
            return java.util.Arrays.copyOf(payload, size);
        }
    }

    /** A reply that does not follow the protocol: the connection is out of step and is closed. */
    static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    /** owserver's answer that it cannot do what was asked: a path that does not exist, a device gone. */
    public static final class ErrorReply extends Exception {
        private static final long serialVersionUID = 1L;
        private final int errno;

        ErrorReply(int errno, String path) {
            super("owserver answered " + describe(errno) + " for " + path);
            this.errno = errno;
        }

        int errno() {
            return errno;
        }

        /** Whether owserver says the path is not there: a device absent from the bus, or a misspelt path. */
        boolean noSuchPath() {
            return errno == 2;
        }

        private static String describe(int errno) {
            return switch (errno) {
                case 2 -> "ENOENT (no such path: the device is not on the bus, or the path is misspelt)";
                case 5 -> "EIO (the bus did not answer: a wire or a device in trouble)";
                case 19 -> "ENODEV (no such device)";
                case 22 -> "EINVAL (invalid path or request)";
                case 13 -> "EACCES (access refused)";
                default -> "error " + errno;
            };
        }
    }

    /** Opens the connection now (the first request would otherwise), and checks owserver answers. */
    public void open() throws IOException {
        try {
            call(NOP, "/", 0);
        } catch (ErrorReply e) {
            // an owserver that refuses NOP is still an owserver that answers
        }
    }

    /** The text of a value, such as {@code "     21.5"} for a temperature. */
    public byte[] read(String path) throws IOException, ErrorReply {
        return call(READ, path, MAX_READ).data();
    }

    /** The paths under {@code path}, such as {@code /28.000028D70000} for the root. */
    public List<String> dirall(String path) throws IOException, ErrorReply {
        return list(call(DIRALL, path, 0).payload());
    }

    /** Whether the path exists on the bus now. */
    boolean present(String path) throws IOException {
        try {
            call(PRESENCE, path, 0);
            return true;
        } catch (ErrorReply e) {
            return false;
        }
    }

    /** Closes the connection; the next request opens another. */
    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing is all that was asked
            }
            socket = null;
        }
    }

    /**
     * One exchange; on a kept connection that owserver closed meanwhile (it drops idle ones), once
     * more on a new connection.
     */
    private Reply call(int type, String path, int size) throws IOException, ErrorReply {
        boolean reused = socket != null;
        try {
            return exchange(type, path, size);
        } catch (IOException e) {
            close();
            if (!reused || e instanceof ProtocolException || e instanceof SocketTimeoutException) {
                throw e;
            }
            try {
                return exchange(type, path, size);
            } catch (IOException again) {
                close();
                throw again;
            }
        }
    }

    private Reply exchange(int type, String path, int size) throws IOException, ErrorReply {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        if (socket == null) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(host, port), timeoutMs);
                s.setTcpNoDelay(true);
            } catch (IOException e) {
                s.close();
                throw e;
            }
            socket = s;
        }
        socket.setSoTimeout(timeoutMs);
        OutputStream out = socket.getOutputStream();
        out.write(request(type, path, size, persistent ? FLAG_OWNET | FLAG_PERSIST : FLAG_OWNET));
        out.flush();
        Reply reply = readReply(socket.getInputStream(), MAX_PAYLOAD, deadline);
        if ((reply.flags() & FLAG_PERSIST) == 0) {
            close();
        }
        if (reply.ret() < 0) {
            throw new ErrorReply(-reply.ret(), path);
        }
        return reply;
    }

    /** A request: header and the path, NUL-terminated. */
    static byte[] request(int type, String path, int size, int flags) {
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(HEADER + p.length + 1);
        b.putInt(0).putInt(p.length + 1).putInt(type).putInt(flags).putInt(size).putInt(0);
        b.put(p).put((byte) 0);
        return b.array();
    }

    /**
     * Reads one reply, skipping owserver's pings, until {@code deadline} ({@link System#nanoTime()}).
     *
     * @param maxPayload the largest payload accepted
     * @throws ProtocolException when the reply breaks the protocol or a bound, or the stream ends within it
     */
    static Reply readReply(InputStream stream, int maxPayload, long deadline) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        while (true) {
            int version;
            int length;
            int ret;
            int flags;
            int size;
            int offset;
            try {
                version = in.readInt();
            } catch (EOFException e) {
                // not out of step: owserver closes connections it does not keep, and idle kept ones
                throw new EOFException("owserver closed the connection without replying");
            }
            try {
                length = in.readInt();
                ret = in.readInt();
                flags = in.readInt();
                size = in.readInt();
                offset = in.readInt();
            } catch (EOFException e) {
                throw new ProtocolException("owserver closed the connection within a reply's header");
            }
            if (length == -1) {
                if (System.nanoTime() - deadline > 0) {
                    throw new SocketTimeoutException("owserver kept answering \"still working\" past the timeout");
                }
                continue;
            }
            if (length < 0 || length > maxPayload) {
                throw new ProtocolException("owserver's reply announces a payload of " + length
                        + " bytes, outside 0 to " + maxPayload);
            }
            byte[] payload = new byte[length];
            try {
                in.readFully(payload);
            } catch (EOFException e) {
                throw new ProtocolException("owserver closed the connection within a reply's payload of "
                        + length + " bytes");
            }
            return new Reply(version, ret, flags, size, offset, payload);
        }
    }

    /** The paths of a directory reply: comma-separated, possibly NUL-terminated. */
    static List<String> list(byte[] payload) {
        ByteArrayOutputStream text = new ByteArrayOutputStream(payload.length);
        for (byte b : payload) {
            if (b != 0) {
                text.write(b);
            }
        }
        List<String> paths = new ArrayList<>();
        for (String p : text.toString(StandardCharsets.UTF_8).split(",")) {
            if (!p.isBlank()) {
                paths.add(p.strip());
            }
        }
        return paths;
    }
}
