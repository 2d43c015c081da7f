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
    /** The first codec's encoding: written under the lock, {@link #firstCodec} last, then read without it. */
    private byte[] firstBytes;
    private volatile Codec firstCodec;
    /** Any other codecs' encodings (rare: sessions of one agent with different codecs); guarded by {@code this}. */
    private Codec[] otherCodecs;
    private byte[][] otherBytes;

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
    byte[] encodedWith(Codec codec) {
        if (firstCodec == codec) {
            return firstBytes;
        }
        synchronized (this) {
            if (firstCodec == null) {
                firstBytes = encode(codec);
                firstCodec = codec;
                return firstBytes;
            }
            if (firstCodec == codec) {
                return firstBytes;
            }
            int n = otherCodecs == null ? 0 : otherCodecs.length;
            for (int i = 0; i < n; i++) {
                if (otherCodecs[i] == codec) {
                    return otherBytes[i];
                }
            }
            byte[] encoded = encode(codec);
            otherCodecs = n == 0 ? new Codec[1] : Arrays.copyOf(otherCodecs, n + 1);
            otherBytes = n == 0 ? new byte[1][] : Arrays.copyOf(otherBytes, n + 1);
            otherCodecs[n] = codec;
            otherBytes[n] = encoded;
            return encoded;
        }
    }

    private byte[] encode(Codec codec) {
        byte[] encoded = codec.encode(message);
        onEncoded.run();
        return encoded;
    }

    @Override
    public String toString() {
        return "shared " + message;
    }
}
