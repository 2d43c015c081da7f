package org.salgate.wire;

/**
 * Maps {@link Message}s to bytes and back. One codec instance may be used from many threads at
 * once, so implementations keep no per-call state.
 *
 * <p>A codec is registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services/org.salgate.wire.Codec} and needs a public zero-argument constructor.
 * {@link Codecs} looks codecs up by {@link #name()}.
 */
public interface Codec {

    /** The name clients and agents use to select this codec, such as {@code protobuf}. */
    String name();

    /** Encodes one message into a new array, without any length prefix. */
    byte[] encode(Message message);

    /**
     * Decodes one message from {@code length} bytes of {@code bytes} starting at {@code offset}.
     * The message keeps nothing of {@code bytes}: the caller may reuse the array for other bytes as
     * soon as this returns, as {@link FrameReader} does.
     *
     * @throws CodecException if the bytes are not a valid message; never any other exception
     */
    Message decode(byte[] bytes, int offset, int length) throws CodecException;

    /** Decodes a whole array; see {@link #decode(byte[], int, int)}. */
    default Message decode(byte[] bytes) throws CodecException {
        return decode(bytes, 0, bytes.length);
    }
}
