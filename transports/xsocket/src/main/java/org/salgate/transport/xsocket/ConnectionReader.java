package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.salgate.transport.FrameReader;
import org.xsocket.connection.INonBlockingConnection;

/**
 * Moves everything xSocket has read for a connection into its {@link FrameReader}, in one call,
 * so xSocket's read buffer never holds more than what arrived since the last callback: cutting
 * frames one by one out of it would cost time in proportion to the chunks it holds, for every
 * frame.
 */
final class ConnectionReader {

    private ConnectionReader() {}

    static void drain(INonBlockingConnection connection, FrameReader reader) throws IOException {
        int available = connection.available();
        if (available <= 0) {
            return;
        }
        for (ByteBuffer chunk : connection.readByteBufferByLength(available)) {
            reader.append(chunk);
        }
    }
}
