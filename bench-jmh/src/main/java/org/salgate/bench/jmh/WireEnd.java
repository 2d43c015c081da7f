package org.salgate.bench.jmh;

import java.nio.ByteBuffer;

import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.transport.FrameReader;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;

/**
 * One end of a connection as every byte-stream transport holds it: the connection's
 * {@link ConnectionCodec}, already past the handshake, a {@link FrameReader} for what arrives, and a
 * write buffer that is reused, as the transports' pooled write buffers are. Not thread-safe.
 */
final class WireEnd {

    private final ConnectionCodec codec;
    private final FrameReader reader;
    private ByteBuffer out = ByteBuffer.allocate(Framing.LENGTH_FIELD_BYTES);

    private WireEnd(ConnectionCodec codec) {
        this.codec = codec;
        this.reader = new FrameReader(codec, Framing.DEFAULT_MAX_FRAME_BYTES);
    }

    /** An end using the named codec, whose reader has taken the hello that opens every connection. */
    static WireEnd open(String codecName) throws CodecException {
        WireEnd end = new WireEnd(new ConnectionCodec(Codecs.byName(codecName)));
        Message hello = end.receive(frame(end.codec.encode(Hello.of(codecName, "jmh"))));
        if (!(hello instanceof Hello)) {
            throw new IllegalStateException("the handshake frame decoded as " + hello);
        }
        return end;
    }

    /**
     * Encodes a message and frames it into the write buffer, as the outbound path does (the session
     * encodes, the writer puts each length and body into its buffer).
     *
     * @return the write buffer, flipped: the frame as it goes on the wire
     */
    ByteBuffer send(Message message) {
        byte[] body = codec.encode(message);
        if (out.capacity() < Framing.frameBytes(body)) {
            out = ByteBuffer.allocate(Framing.frameBytes(body));
        }
        out.clear();
        Framing.put(out, body);
        return out.flip();
    }

    /**
     * Takes what one read brought, as the transports' read handlers do: appends it and cuts frames
     * until none is whole. {@code read} holds exactly one frame and is emptied.
     */
    Message receive(ByteBuffer read) throws CodecException {
        reader.append(read);
        Message message = reader.next();
        if (message == null || reader.next() != null) {
            throw new IllegalStateException("a read of one frame did not give exactly one message");
        }
        return message;
    }

    /** A copy of the frame {@link #send} writes for {@code message}, for feeding {@link #receive} again and again. */
    ByteBuffer frameOf(Message message) {
        ByteBuffer sent = send(message);
        ByteBuffer copy = ByteBuffer.allocate(sent.remaining());
        copy.put(sent).flip();
        return copy;
    }

    private static ByteBuffer frame(byte[] body) {
        ByteBuffer buffer = ByteBuffer.allocate(Framing.frameBytes(body));
        Framing.put(buffer, body);
        return buffer.flip();
    }
}
