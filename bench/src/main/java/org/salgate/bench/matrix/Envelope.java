package org.salgate.bench.matrix;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The matrix's payload inside a salgate {@code Echo}: one byte holding the length of the format
 * name, the name in ASCII, then the object encoded with that format. The server reads the name to
 * know how to decode, and answers with an envelope of the same shape.
 *
 * @param format the payload format's name, such as {@code json}
 * @param body the encoded object
 */
public record Envelope(String format, byte[] body) {

    /** The longest format name one length byte can carry. */
    public static final int MAX_NAME_BYTES = 255;

    /**
     * Wraps {@code body} under {@code format}.
     *
     * @throws IllegalArgumentException if the name is empty, longer than 255 bytes or not ASCII
     */
    public static byte[] wrap(String format, byte[] body) {
        byte[] name = format.getBytes(StandardCharsets.US_ASCII);
        if (name.length == 0 || name.length > MAX_NAME_BYTES
                || !new String(name, StandardCharsets.US_ASCII).equals(format)) {
            throw new IllegalArgumentException("a format name must be 1.." + MAX_NAME_BYTES + " ASCII characters, got '"
                    + format + "'");
        }
        byte[] out = new byte[1 + name.length + body.length];
        out[0] = (byte) name.length;
        System.arraycopy(name, 0, out, 1, name.length);
        System.arraycopy(body, 0, out, 1 + name.length, body.length);
        return out;
    }

    /**
     * Reads an envelope.
     *
     * @throws IllegalArgumentException if the bytes are too short for the name they announce
     */
    public static Envelope parse(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("the envelope is empty; it must start with the length of the format name");
        }
        int n = bytes[0] & 0xff;
        if (n == 0 || bytes.length < 1 + n) {
            throw new IllegalArgumentException("the envelope announces a format name of " + n + " bytes but holds "
                    + (bytes.length - 1) + " bytes after the length");
        }
        String name = new String(bytes, 1, n, StandardCharsets.US_ASCII);
        return new Envelope(name, Arrays.copyOfRange(bytes, 1 + n, bytes.length));
    }
}
