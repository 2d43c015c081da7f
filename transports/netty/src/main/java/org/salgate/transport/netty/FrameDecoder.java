package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.ByteOrder;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;

/**
 * Splits the byte stream into frames as {@link Framing} defines them, failing on the length field
 * alone (before buffering the body) when a frame is too large or its length is not positive. The
 * failure reaches the pipeline as a {@link DecoderException} whose cause is the {@link CodecException}.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private final int maxFrameBytes;

    FrameDecoder(int maxFrameBytes) {
        super((int) Math.min((long) maxFrameBytes + Framing.LENGTH_FIELD_BYTES, Integer.MAX_VALUE),
                0, Framing.LENGTH_FIELD_BYTES, 0, Framing.LENGTH_FIELD_BYTES);
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        int frameLength = buf.getInt(offset);
        try {
            return Framing.checkLength(frameLength, maxFrameBytes);
        } catch (CodecException e) {
            throw new DecoderException(e);
        }
    }

    /** The error to report for a pipeline exception: the codec's own exception when there is one. */
    static Throwable unwrap(Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof CodecException codecError) {
            return codecError;
        }
        return cause;
    }
}
