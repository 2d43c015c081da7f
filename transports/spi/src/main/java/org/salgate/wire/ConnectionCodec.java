package org.salgate.wire;

/**
 * The codec state of one connection, for one side. The handshake ({@link Hello} and
 * {@link HelloReply}) is always encoded with the {@linkplain ProtobufCodec handshake codec}, so that
 * an agent can read a hello whatever codec the client asks for; every later frame uses the codec
 * the connection was made with.
 *
 * <p>The first frame a side receives is the handshake frame. Not thread-safe for decoding: a
 * connection decodes its frames in order on one thread at a time, as every transport does.
 */
public final class ConnectionCodec {

    private final Codec codec;
    private boolean handshakeReceived;

    public ConnectionCodec(Codec codec) {
        this.codec = codec;
    }

    /** The codec used after the handshake. */
    public Codec codec() {
        return codec;
    }

    /** Encodes a message; safe to call from any thread. */
    public byte[] encode(Message message) {
        return message.isHandshake() ? ProtobufCodec.INSTANCE.encode(message) : codec.encode(message);
    }

    /** Decodes the next frame received on this connection. */
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        if (!handshakeReceived) {
            handshakeReceived = true;
            Message first = ProtobufCodec.INSTANCE.decode(bytes, offset, length);
            if (!first.isHandshake()) {
                throw new CodecException("the first frame of a connection must be a hello, got "
                        + first.getClass().getSimpleName());
            }
            return first;
        }
        return codec.decode(bytes, offset, length);
    }

    public Message decode(byte[] bytes) throws CodecException {
        return decode(bytes, 0, bytes.length);
    }
}
