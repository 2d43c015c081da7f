package org.salgate.wire;

import java.nio.ByteBuffer;
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

    /** A frame announced a length above the maximum. */
    public static final class FrameTooLargeException extends CodecException {
        private static final long serialVersionUID = 1L;

        public FrameTooLargeException(long length, int max) {
            this(length, max, "");
        }

        FrameTooLargeException(long length, int max, String hint) {
            super("frame of " + length + " bytes exceeds the maximum of " + max + " bytes" + hint);
        }
    }
}
