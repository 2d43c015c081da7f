package org.salgate.bench.jmh;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/**
 * The cost of one message on the hot path, per codec: {@link #encode} is what a session does to send
 * it (encode, then frame into the write buffer), {@link #decode} what a transport's read handler
 * does with the frame (append it to the connection's frame reader, cut it, decode it). Run with
 * {@code -prof gc} for the bytes allocated per operation ({@code gc.alloc.rate.norm}).
 *
 * <p>The messages: a streamed reading (the streaming path), the answer to a sensor list of 10
 * and of 100 sensors (the request path), and the answer to an echo of a 3,408-character text, the
 * transport bench's String call (the size of a typical SensorML document).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark {

    /** Every codec of the codecs module and the SPI; a test checks this is all of them. */
    @Param({"protobuf", "protobuf+gzip", "json", "json+gzip", "msgpack", "msgpack+gzip", "java", "java+gzip",
            "xml", "xml+gzip", "xml-stax", "xml-dom"})
    public String codec;

    /** {@code reading}, {@code list-N} for the answer to a list of N sensors, or {@code echo-text}. */
    @Param({"reading", "list-10", "list-100", "echo-text"})
    public String message;

    /**
     * The length of the {@code echo-text} message's text, built as the transport bench's String
     * payload is ({@code Payload.string()} in the bench module, which this module does not depend on).
     */
    static final int ECHOED_TEXT_CHARS = 3408;

    private WireEnd end;
    private Message toSend;
    private ByteBuffer received;

    @Setup(Level.Trial)
    public void setUp() throws CodecException {
        end = WireEnd.open(codec);
        toSend = message(message);
        received = end.frameOf(toSend);
        Message back = end.receive(received.duplicate());
        if (!back.equals(toSend)) {
            throw new IllegalStateException(codec + " does not give back the " + message + " it encoded: " + back);
        }
    }

    @Benchmark
    public ByteBuffer encode() {
        return end.send(toSend);
    }

    @Benchmark
    public Message decode() throws CodecException {
        received.clear();
        return end.receive(received);
    }

    /** The message a {@link #message} parameter names. */
    static Message message(String name) {
        if (name.equals("reading")) {
            return new StreamData(7, Reading.ok("DUMMY_0", 1_764_000_000_000_000L, 4_242, new Value.Num(21.375)));
        }
        if (name.startsWith("list-")) {
            int n = Integer.parseInt(name.substring("list-".length()));
            List<SensorInfo> sensors = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                sensors.add(new SensorInfo("DUMMY_" + i, "dummy", i % 4 == 0 ? SensorState.STREAMING : SensorState.IDLE,
                        "dummy sensor " + i + ", a reading every 100 ms"));
            }
            return new Response(12, new Result.Sensors(sensors));
        }
        if (name.equals("echo-text")) {
            StringBuilder text = new StringBuilder(ECHOED_TEXT_CHARS);
            while (text.length() < ECHOED_TEXT_CHARS) {
                text.append("<swe:Quantity definition=\"urn:ogc:def:property:temperature\"/>\n");
            }
            text.setLength(ECHOED_TEXT_CHARS);
            return new Response(12, new Result.Echoed(new Value.Text(text.toString())));
        }
        throw new IllegalArgumentException("unknown message '" + name + "': reading, list-N or echo-text");
    }
}
