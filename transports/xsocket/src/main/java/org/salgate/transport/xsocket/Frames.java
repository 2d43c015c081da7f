package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.xsocket.connection.INonBlockingConnection;

/** Length-prefixed frames over an xSocket connection. */
final class Frames {

    private Frames() {}

    /** One frame: the 4-byte length, then the encoded message. */
    static ByteBuffer encode(ConnectionCodec codec, Message message) {
        byte[] body = codec.encode(message);
        ByteBuffer frame = ByteBuffer.allocate(Framing.LENGTH_FIELD_BYTES + body.length);
        frame.putInt(body.length);
        frame.put(body);
        frame.flip();
        return frame;
    }

    /**
     * Reads the next whole frame, or returns null and leaves the bytes in place when it has not fully
     * arrived (xSocket's mark/reset idiom).
     *
     * @throws CodecException if the length is out of bounds or the bytes do not decode
     */
    static Message read(INonBlockingConnection connection, ConnectionCodec codec, int maxFrameBytes)
            throws IOException, CodecException {
        if (connection.available() < Framing.LENGTH_FIELD_BYTES) {
            return null;
        }
        connection.markReadPosition();
        byte[] body;
        try {
            int length = Framing.checkLength(connection.readInt(), maxFrameBytes);
            body = connection.readBytesByLength(length);
            connection.removeReadMark();
        } catch (BufferUnderflowException incomplete) {
            connection.resetToReadMark();
            return null;
        }
        return codec.decode(body);
    }
}
