package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/** Conversions between frames and messages for one connection. */
final class Frames {

    private Frames() {}

    /** Encodes a message into a frame body; the length prefix is added by the pipeline. */
    static ByteBuf encode(ConnectionCodec codec, Message message) {
        return Unpooled.wrappedBuffer(codec.encode(message));
    }

    /**
     * Decodes a frame body. The bytes are copied out because decoded values may keep the array
     * (see {@link org.salgate.wire.Value.Bytes}) while Netty reuses its buffers.
     */
    static Message decode(ConnectionCodec codec, ByteBuf frame) throws CodecException {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        return codec.decode(bytes);
    }
}
