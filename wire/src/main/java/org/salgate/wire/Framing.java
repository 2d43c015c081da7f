package org.salgate.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * How frames travel on byte-stream transports: a 4-byte big-endian length, then that many bytes
 * of one encoded {@link Message}. A length above the connection's maximum, or below 1, is a
 * protocol error that closes the connection.
 */
public final class Framing {

    /** Bytes of the length prefix. */
    public static final int LENGTH_FIELD_BYTES = 4;

    /** Default maximum frame size: 16 MiB, well above the largest streaming payload the bench uses (80 KB). */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

    /** The first two bytes of a TLS handshake record (type 22, version 3.x), read as a length's high half. */
    private static final int TLS_HANDSHAKE_PREFIX = 0x1603;

    /**
     * The request methods whose first four bytes, read as a length, mark an HTTP client (curl, a
     * browser) on a framed port; {@code PRI} begins the HTTP/2 preface.
     */
    private static final List<String> HTTP_METHODS = List.of("GET", "POST", "PUT", "HEAD", "DELETE", "OPTIONS",
            "PATCH", "CONNECT", "TRACE", "PRI");

    /** What an HTTP client is told, as the body of the answer and in the session's cause. */
    static final String HTTP_ADVICE = "this port speaks salgate's binary protocol; use --transport http for HTTP";

    private static final byte[] HTTP_BAD_REQUEST = httpAnswer(HTTP_ADVICE + "\n");

    private Framing() {}

    /** The bytes {@code body} takes on the wire, with its length prefix. */
    public static int frameBytes(byte[] body) {
        return LENGTH_FIELD_BYTES + body.length;
    }

    /** Writes one frame, the length then the body, at {@code target}'s position. */
    public static void put(ByteBuffer target, byte[] body) {
        target.putInt(body.length);
        target.put(body);
    }

    /** Writes frames one after the other at {@code target}'s position; it needs room for all of them. */
    public static void write(List<byte[]> bodies, ByteBuffer target) {
        for (byte[] body : bodies) {
            put(target, body);
        }
    }

    /** Frames in a new heap buffer, ready to read; {@code bytes} is their size on the wire. */
    public static ByteBuffer toBuffer(List<byte[]> bodies, long bytes) {
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(bytes));
        write(bodies, buffer);
        return buffer.flip();
    }

    /**
     * Checks a length read from the wire.
     *
     * @throws FrameTooLargeException if it is above {@code maxFrameBytes}
     * @throws CodecException if it is not positive
     */
    public static int checkLength(int length, int maxFrameBytes) throws CodecException {
        if (length > maxFrameBytes) {
            String method = httpMethod(length);
            if (method != null) {
                throw new HttpRequestException(method);
            }
            if (length >>> 16 == TLS_HANDSHAKE_PREFIX) {
                throw new FrameTooLargeException(length, maxFrameBytes, "; its first bytes, 16 03, begin a TLS"
                        + " handshake: the peer uses TLS and this side does not");
            }
            throw new FrameTooLargeException(length, maxFrameBytes);
        }
        if (length <= 0) {
            throw new CodecException("invalid frame length " + length);
        }
        return length;
    }

    /** The HTTP method whose first four bytes (with the space after a shorter one) are {@code length}'s, or null. */
    private static String httpMethod(int length) {
        byte[] head = ByteBuffer.allocate(LENGTH_FIELD_BYTES).putInt(length).array();
        String text = new String(head, StandardCharsets.US_ASCII);
        for (String method : HTTP_METHODS) {
            String expected = method.length() >= LENGTH_FIELD_BYTES ? method.substring(0, LENGTH_FIELD_BYTES)
                    : method + " ";
            if (text.startsWith(expected)) {
                return method;
            }
        }
        return null;
    }

    /**
     * What a server writes to a peer whose bytes were an {@link HttpRequestException HTTP request}
     * before it closes the connection: a minimal {@code HTTP/1.1 400 Bad Request} whose body says
     * to use the HTTP transport, so that curl or a browser shows why. A new array each time.
     */
    public static byte[] httpBadRequest() {
        return HTTP_BAD_REQUEST.clone();
    }

    private static byte[] httpAnswer(String body) {
        return ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A frame announced a length above the maximum. */
    public static sealed class FrameTooLargeException extends CodecException permits HttpRequestException {
        private static final long serialVersionUID = 1L;

        public FrameTooLargeException(long length, int max) {
            this(length, max, "");
        }

        public FrameTooLargeException(long length, int max, String hint) {
            super("frame of " + length + " bytes exceeds the maximum of " + max + " bytes" + hint);
        }

        private FrameTooLargeException(String message) {
            super(message);
        }
    }

    /**
     * The peer sent an HTTP request where a frame's length was due. A server answers it with
     * {@link #httpBadRequest()} before closing.
     */
    public static final class HttpRequestException extends FrameTooLargeException {
        private static final long serialVersionUID = 1L;

        private final String method;

        HttpRequestException(String method) {
            super("an HTTP request (" + method + ") came where a frame was due: " + HTTP_ADVICE);
            this.method = method;
        }

        /** The request's method, such as {@code GET}. */
        public String method() {
            return method;
        }
    }
}
