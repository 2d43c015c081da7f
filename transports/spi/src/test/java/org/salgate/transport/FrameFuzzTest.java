package org.salgate.transport;

import org.salgate.wire.Codecs;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes what an agent does with the bytes of a connection, through the {@link FrameReader} every
 * byte-stream transport feeds: the bytes arrive in reads of a size the input chooses, frames are
 * held to 64 KiB until the hello is in and to the frame limit after, and each whole frame is
 * decoded, the first as the hello. Any input must end in messages or a {@link CodecException};
 * nothing else may escape, hang or exhaust memory, the reader may never hold more than what
 * arrived, and every message decoded must read the same when encoded again.
 * Without {@code JAZZER_FUZZ} it replays the inputs under {@code FrameFuzzTestInputs}.
 */
class FrameFuzzTest {

    /** A small limit, so that the fuzzer also reaches frames above it. */
    private static final int MAX_FRAME_BYTES = 64 * 1024;
    /** The limit until the hello is in, lower still. */
    private static final int MAX_FRAME_BYTES_BEFORE_HELLO = 1024;

    @FuzzTest(maxDuration = "30s")
    void framesOfAConnection(FuzzedDataProvider data) {
        int readSize = data.consumeInt(1, 8 * 1024);
        byte[] input = data.consumeRemainingAsBytes();
        ConnectionCodec connection = new ConnectionCodec(Codecs.defaultCodec());
        boolean[] helloIn = {false};
        FrameReader reader = new FrameReader(connection, MAX_FRAME_BYTES,
                () -> helloIn[0] ? MAX_FRAME_BYTES : MAX_FRAME_BYTES_BEFORE_HELLO, null);
        long arrived = 0;
        try {
            for (int offset = 0; offset < input.length; offset += readSize) {
                int length = Math.min(readSize, input.length - offset);
                reader.append(input, offset, length);
                arrived += length;
                for (Message m = reader.next(); m != null; m = reader.next()) {
                    if (!helloIn[0] && !m.isHandshake()) {
                        throw new AssertionError("the first message of a connection is not its hello: " + m);
                    }
                    helloIn[0] = true;
                    readsTheSameEncodedAgain(m);
                }
                if (reader.buffered() > arrived) {
                    throw new AssertionError("the reader holds " + reader.buffered() + " bytes of the " + arrived
                            + " that arrived");
                }
            }
        } catch (CodecException e) {
            // the connection is closed
        } finally {
            reader.release();
        }
    }

    @FuzzTest(maxDuration = "30s")
    void hello(byte[] input) {
        Message m;
        try {
            m = new ConnectionCodec(Codecs.defaultCodec()).decode(input);
        } catch (CodecException e) {
            return; // a clear refusal
        }
        if (!m.isHandshake()) {
            throw new AssertionError("a first frame that is not a handshake was accepted: " + m);
        }
        readsTheSameEncodedAgain(m);
    }

    /** A message decoded from what a peer sent, encoded and decoded again, is the same message. */
    private static void readsTheSameEncodedAgain(Message m) {
        Message again;
        try {
            again = Codecs.defaultCodec().decode(Codecs.defaultCodec().encode(m));
        } catch (CodecException e) {
            throw new AssertionError("a decoded message does not decode once encoded again: " + m, e);
        }
        if (!again.equals(m)) {
            throw new AssertionError("a decoded message reads differently once encoded again: " + m + " then " + again);
        }
    }
}
