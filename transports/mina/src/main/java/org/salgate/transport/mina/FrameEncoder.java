package org.salgate.transport.mina;

import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolEncoderAdapter;
import org.apache.mina.filter.codec.ProtocolEncoderOutput;

/**
 * The encoding half of the framing filter, which never encodes: sessions send through their
 * {@link FrameWriter}, which writes framed {@code IoBuffer}s that pass the filter untouched. A message
 * written straight to the {@code IoSession} would overtake the frames waiting in the writer, so it is
 * refused.
 */
final class FrameEncoder extends ProtocolEncoderAdapter {

    @Override
    public void encode(IoSession session, Object message, ProtocolEncoderOutput out) {
        throw new IllegalStateException("a " + message.getClass().getName()
                + " was written straight to the MINA session; send it through the session's FrameWriter");
    }
}
