package org.salgate.transport.mina;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolEncoderAdapter;
import org.apache.mina.filter.codec.ProtocolEncoderOutput;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;

/** Writes a {@link Message} as one length-prefixed frame, encoded with the session's {@link ConnectionCodec}. */
final class FrameEncoder extends ProtocolEncoderAdapter {

    @Override
    public void encode(IoSession session, Object message, ProtocolEncoderOutput out) {
        ConnectionCodec codec = (ConnectionCodec) session.getAttribute(FrameDecoder.CONNECTION_CODEC);
        byte[] body = codec.encode((Message) message);
        IoBuffer frame = IoBuffer.allocate(Framing.LENGTH_FIELD_BYTES + body.length, false);
        frame.putInt(body.length);
        frame.put(body);
        frame.flip();
        out.write(frame);
    }
}
