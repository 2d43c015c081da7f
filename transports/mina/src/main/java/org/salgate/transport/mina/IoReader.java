package org.salgate.transport.mina;

import java.util.function.Consumer;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.transport.FrameReader;
import org.salgate.wire.Message;

/** Feeds what MINA read for a session into its {@link FrameReader}, kept as a session attribute. */
final class IoReader {

    private static final AttributeKey READER = new AttributeKey(IoReader.class, "frameReader");

    private IoReader() {}

    static void attach(IoSession io, ConnectionCodec codec, int maxFrameBytes) {
        attach(io, new FrameReader(codec, maxFrameBytes));
    }

    static void attach(IoSession io, FrameReader reader) {
        io.setAttribute(READER, reader);
    }

    /** The session's reader. */
    static FrameReader reader(IoSession io) {
        return (FrameReader) io.getAttribute(READER);
    }

    /** Gives back what the session's reader held: the session is closed. */
    static void release(IoSession io) {
        FrameReader reader = (FrameReader) io.getAttribute(READER);
        if (reader != null) {
            reader.release();
        }
    }

    /** Appends what MINA read to the session's reader, for someone else to deliver. */
    static void append(IoSession io, Object bytes) {
        reader(io).append(((IoBuffer) bytes).buf());
    }

    /** Hands every whole message received so far to {@code deliver}, in order. */
    static void received(IoSession io, Object bytes, Consumer<Message> deliver) throws CodecException {
        FrameReader reader = reader(io);
        reader.append(((IoBuffer) bytes).buf());
        Message message;
        while (!io.isClosing() && (message = reader.next()) != null) {
            deliver.accept(message);
        }
    }
}
