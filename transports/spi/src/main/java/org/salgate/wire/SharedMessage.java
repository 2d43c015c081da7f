package org.salgate.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * A message sent unchanged to many connections, such as a reading of a shared stream: each codec
 * encodes it at most once, and every connection using that codec sends the same bytes, which no
 * one may change. Thread-safe.
 */
public final class SharedMessage {

    private final Message message;
    private final Runnable onEncoded;
    /** The encodings so far, by codec; nearly always one. Guarded by {@code this}. */
    private Codec[] codecs = new Codec[0];
    private byte[][] encodings = new byte[0][];

    /**
     * @param message the message; not a handshake, which has a codec of its own
     * @param onEncoded run each time a codec encodes it (at most once per codec), for counting
     */
    public SharedMessage(Message message, Runnable onEncoded) {
        this.message = Objects.requireNonNull(message, "message");
        this.onEncoded = Objects.requireNonNull(onEncoded, "onEncoded");
        if (message.isHandshake()) {
            throw new IllegalArgumentException("a handshake message is never shared");
        }
    }

    /** The message, for connections that do not encode what they send. */
    public Message message() {
        return message;
    }

    /** Its encoding with {@code codec}: made on the first call for that codec, the same array afterwards. */
    synchronized byte[] encodedWith(Codec codec) {
        for (int i = 0; i < codecs.length; i++) {
            if (codecs[i] == codec) {
                return encodings[i];
            }
        }
        byte[] encoded = codec.encode(message);
        int n = codecs.length;
        codecs = Arrays.copyOf(codecs, n + 1);
        encodings = Arrays.copyOf(encodings, n + 1);
        codecs[n] = codec;
        encodings[n] = encoded;
        onEncoded.run();
        return encoded;
    }

    @Override
    public String toString() {
        return "shared " + message;
    }
}
