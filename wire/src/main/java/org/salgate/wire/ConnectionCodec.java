package org.salgate.wire;

import java.util.concurrent.atomic.LongAdder;

/**
 * The codec state of one connection, for one side. The handshake ({@link Hello} and
 * {@link HelloReply}) is always encoded with the {@linkplain ProtobufCodec handshake codec}, so that
 * an agent can read a hello whatever codec the client asks for; every later frame uses the codec
 * the connection was made with.
 *
 * <p>The first frame a side receives is the handshake frame. Not thread-safe for decoding: a
 * connection decodes its frames in order on one thread at a time, as every transport does.
 *
 * <p>Every frame of a connection passes here, so this is where its traffic is counted: the bytes
 * of the encoded messages it sent and received (without length prefixes or TLS).
 */
public final class ConnectionCodec {

    private final Codec codec;
    private boolean handshakeReceived;
    private final LongAdder bytesEncoded = new LongAdder();
    private final LongAdder bytesDecoded = new LongAdder();

    public ConnectionCodec(Codec codec) {
        this.codec = codec;
    }

    /** The codec used after the handshake. */
    public Codec codec() {
        return codec;
    }

    /** Encodes a message; safe to call from any thread. */
    public byte[] encode(Message message) {
        byte[] encoded = message.isHandshake() ? ProtobufCodec.INSTANCE.encode(message) : codec.encode(message);
        bytesEncoded.add(encoded.length);
        return encoded;
    }

    /**
     * The encoding of a message shared with other connections: made once per codec and reused, so
     * it must not be changed. Counted as sent here like any other. Safe to call from any thread.
     */
    public byte[] encode(SharedMessage message) {
        byte[] encoded = message.encodedWith(codec);
        bytesEncoded.add(encoded.length);
        return encoded;
    }

    /** Decodes the next frame received on this connection. */
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        bytesDecoded.add(length);
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

    /** Bytes of the messages encoded here so far (what this side sent, or queued to send). */
    public long bytesEncoded() {
        return bytesEncoded.sum();
    }

    /** Bytes of the frames decoded here so far (what this side received), malformed ones included. */
    public long bytesDecoded() {
        return bytesDecoded.sum();
    }
}
