package org.salgate.transport.xsocket;

import java.io.IOException;
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
     * Cuts frames out of everything xSocket has read for a connection. {@link #drain} empties
     * xSocket's read buffer in one call, so that buffer never holds more than what arrived since the
     * last callback: cutting frames one by one out of it costs time in proportion to the number of
     * chunks it holds, for every frame, and a backlog there (xSocket keeps reading while a callback
     * runs on a worker, as it does after receiving was resumed from another thread) then makes
     * each frame slower to cut than the next chunk is to read.
     *
     * <p>Bytes are only ever appended to the current array, and a full array is replaced rather
     * than compacted, so a decoded message can never see its bytes change; an array whose frames
     * were all cut is let go, so an idle connection holds none. Not thread-safe: xSocket runs a
     * connection's callbacks one at a time.
     */
    static final class Cutter {

        private static final int MIN_CAPACITY = 8 * 1024;
        private static final byte[] NONE = new byte[0];

        private final ConnectionCodec codec;
        private final int maxFrameBytes;
        private byte[] bytes = NONE;
        private int start;
        private int end;

        Cutter(ConnectionCodec codec, int maxFrameBytes) {
            this.codec = codec;
            this.maxFrameBytes = maxFrameBytes;
        }

        /** Takes every byte xSocket holds for the connection. */
        void drain(INonBlockingConnection connection) throws IOException {
            int available = connection.available();
            if (available <= 0) {
                return;
            }
            ByteBuffer[] chunks = connection.readByteBufferByLength(available);
            if (bytes.length - end < available) {
                int kept = end - start;
                // Doubling: a large frame arriving in many chunks is not copied once per chunk.
                byte[] next = new byte[Math.max(MIN_CAPACITY, Math.max(kept + available, 2 * kept))];
                System.arraycopy(bytes, start, next, 0, kept);
                bytes = next;
                start = 0;
                end = kept;
            }
            for (ByteBuffer chunk : chunks) {
                int n = chunk.remaining();
                chunk.get(bytes, end, n);
                end += n;
            }
        }

        /**
         * The next whole frame's message, or null until more bytes arrive.
         *
         * @throws CodecException if the length is out of bounds or the bytes do not decode
         */
        Message next() throws CodecException {
            if (start == end) {
                bytes = NONE;
                start = 0;
                end = 0;
            }
            if (end - start < Framing.LENGTH_FIELD_BYTES) {
                return null;
            }
            int length = Framing.checkLength(ByteBuffer.wrap(bytes, start, Framing.LENGTH_FIELD_BYTES).getInt(),
                    maxFrameBytes);
            if (end - start - Framing.LENGTH_FIELD_BYTES < length) {
                return null;
            }
            int body = start + Framing.LENGTH_FIELD_BYTES;
            start = body + length;
            return codec.decode(bytes, body, length);
        }

        /** Bytes held that are not yet cut into frames. */
        int buffered() {
            return end - start;
        }
    }
}
