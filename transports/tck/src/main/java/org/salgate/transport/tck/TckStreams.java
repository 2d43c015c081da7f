package org.salgate.transport.tck;

import java.nio.ByteBuffer;
import java.util.Map;
import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * The numbered streams of the transport-level suite. A client asks for one with a
 * {@link Call.SetupStream} of sensor {@value #SENSOR}, command {@value #COMMAND}, and arguments
 * {@code count} and {@code size}; the server answers with the stream handle, pushes readings with
 * sequence numbers 0..count-1 (an {@link Value.Int} of the sequence when size is 0, else
 * {@code size} bytes starting with the sequence), then a {@link org.salgate.wire.StreamEnded}.
 */
public final class TckStreams {

    public static final String SENSOR = "tck";
    public static final String COMMAND = "count";
    /** The reason the server gives when a stream has pushed all its frames. */
    public static final String COMPLETE = "complete";

    private TckStreams() {}

    /** The call that asks for {@code count} frames of {@code size} payload bytes (0: an integer). */
    public static Call.SetupStream request(long count, int size) {
        return new Call.SetupStream(SENSOR, COMMAND, Map.of("count", Long.toString(count), "size",
                Integer.toString(size)), 0);
    }

    /** Frame {@code sequence} of a stream with {@code size}-byte payloads. */
    public static Reading reading(long sequence, int size) {
        if (size == 0) {
            return Reading.ok(SENSOR, sequence, sequence, Value.of(sequence));
        }
        byte[] payload = new byte[size];
        if (size >= Long.BYTES) {
            ByteBuffer.wrap(payload).putLong(sequence);
        }
        return Reading.ok(SENSOR, sequence, sequence, Value.of(payload));
    }

    /** What is wrong with a received frame, or null when it is the expected one. */
    public static String problem(Reading reading) {
        long seq = reading.sequence();
        if (reading.value() instanceof Value.Int i) {
            return i.value() == seq ? null : "carries " + i.value() + " instead of its sequence";
        }
        if (reading.value() instanceof Value.Bytes b) {
            byte[] bytes = b.value();
            if (bytes.length >= Long.BYTES && ByteBuffer.wrap(bytes).getLong() != seq) {
                return "payload does not start with its sequence";
            }
            return null;
        }
        return "unexpected value " + reading.value();
    }
}
