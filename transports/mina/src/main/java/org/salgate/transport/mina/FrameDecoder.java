package org.salgate.transport.mina;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.CumulativeProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderOutput;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;

/**
 * Cuts the byte stream into length-prefixed frames and decodes each with the session's
 * {@link ConnectionCodec} (stored under {@link #CONNECTION_CODEC}). A frame longer than the maximum,
 * or bytes that do not decode, fail the session: the exception reaches the handler's
 * {@code exceptionCaught}, which closes it.
 */
final class FrameDecoder extends CumulativeProtocolDecoder {

    static final AttributeKey CONNECTION_CODEC = new AttributeKey(FrameDecoder.class, "connectionCodec");

    private final int maxFrameBytes;

    FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected boolean doDecode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) throws Exception {
        if (in.remaining() < Framing.LENGTH_FIELD_BYTES) {
            return false;
        }
        int length;
        try {
            // Checked before prefixedDataAvailable so that an oversized frame fails at once with a clear cause.
            length = Framing.checkLength(in.getInt(in.position()), maxFrameBytes);
        } catch (CodecException e) {
            in.position(in.limit());
            throw e;
        }
        if (!in.prefixedDataAvailable(Framing.LENGTH_FIELD_BYTES, maxFrameBytes)) {
            return false;
        }
        in.skip(Framing.LENGTH_FIELD_BYTES);
        ConnectionCodec codec = (ConnectionCodec) session.getAttribute(CONNECTION_CODEC);
        Message message;
        try {
            if (in.hasArray()) {
                message = codec.decode(in.array(), in.arrayOffset() + in.position(), length);
                in.skip(length);
            } else {
                byte[] frame = new byte[length];
                in.get(frame);
                message = codec.decode(frame);
            }
        } catch (CodecException e) {
            in.position(in.limit());
            throw e;
        }
        out.write(message);
        return true;
    }
}
