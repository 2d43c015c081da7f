package org.salgate.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Fuzzes what an agent does with the bytes of a connection: length prefixes checked against the
 * frame limit, then frames decoded in order, the first as the hello. Any input must end in a
 * message or a {@link CodecException}; nothing else may escape, hang or exhaust memory.
 * Without {@code JAZZER_FUZZ} it replays the inputs under {@code FrameFuzzTestInputs}.
 */
class FrameFuzzTest {

    /** A small limit, so that the fuzzer also reaches frames above it. */
    private static final int MAX_FRAME_BYTES = 64 * 1024;

    @FuzzTest(maxDuration = "30s")
    void framesOfAConnection(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        ConnectionCodec connection = new ConnectionCodec(ProtobufCodec.INSTANCE);
        while (in.remaining() >= Framing.LENGTH_FIELD_BYTES) {
            int length;
            try {
                length = Framing.checkLength(in.getInt(), MAX_FRAME_BYTES);
            } catch (CodecException e) {
                return; // the connection is closed
            }
            if (length > in.remaining()) {
                return; // the rest of the frame never came
            }
            try {
                connection.decode(input, in.position(), length);
            } catch (CodecException e) {
                return;
            }
            in.position(in.position() + length);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void hello(byte[] input) {
        try {
            Message m = new ConnectionCodec(ProtobufCodec.INSTANCE).decode(input);
            if (!m.isHandshake()) {
                throw new AssertionError("a first frame that is not a handshake was accepted: " + m);
            }
        } catch (CodecException e) {
            // a clear refusal
        }
    }
}
