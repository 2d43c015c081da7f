package org.salgate.transport.tck;

import java.util.ArrayList;
import java.util.List;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.wire.WireSamples;
import org.salgate.model.Value;

/** One sample of every kind of message, with awkward values where a transport could slip. */
public final class TckMessages {

    private TckMessages() {}

    /** One value of each kind, including edge values. */
    public static List<Value> everyValue() {
        byte[] bytes = new byte[300];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return List.of(Value.of(3.25), Value.of(-0.0), Value.of(Double.NaN), Value.of(Double.MAX_VALUE),
                Value.of(Long.MIN_VALUE), Value.of(Long.MAX_VALUE), Value.of(0L),
                Value.of(""), Value.of("température ✓ 温度 \u0000 end"), Value.of(new byte[0]), Value.of(bytes),
                Value.absent());
    }

    /** A reading of each status, with and without a unit and a device time. */
    public static List<Reading> everyReading() {
        return List.of(Reading.ok("DUMMY_0", 1_700_000_000_000_000L, 7, Value.of(21.5)),
                Reading.unavailable("cpu_temp", 1L, 0, "no temperature probe on this machine"),
                Reading.error("DUMMY_1", Long.MAX_VALUE, Long.MAX_VALUE, "the sensor did not answer"),
                Reading.ok("meter.voltage", 1_700_000_000_000_000L, 8, Value.of(230.25)).withUnit("V")
                        .withDeviceTime(1_699_999_999_999_999L),
                Reading.ok("meter.level", 2L, 0, Value.of(-7L)).withUnit("10*3.m3/h").withDeviceTime(Long.MAX_VALUE),
                Reading.disconnected("meter.voltage", 3L, 1, "device meter (tcp:127.0.0.1:5020) is disconnected:"
                        + " Connection refused; next attempt in 4.0 s").withUnit("V"),
                Reading.error("meter.temperature", 4L, 2, "channel t could not be read").withUnit("Cel ✓")
                        .withDeviceTime(Long.MIN_VALUE));
    }

    /** One call of each kind ({@link WireSamples#everyCall()}), and an echo of each value and reading. */
    public static List<Call> everyCall() {
        List<Call> calls = new ArrayList<>(WireSamples.everyCall());
        everyValue().forEach(v -> calls.add(new Call.Echo(v)));
        everyReading().forEach(r -> calls.add(new Call.EchoReading(r)));
        return calls;
    }

    /**
     * One result of each kind ({@link WireSamples#everyResult()}), the answer to an echo of each value
     * and reading, and a failure of each code.
     */
    public static List<Result> everyResult() {
        List<Result> results = new ArrayList<>(WireSamples.everyResult());
        everyReading().forEach(r -> results.add(new Result.ReadingResult(r)));
        everyValue().forEach(v -> results.add(new Result.Echoed(v)));
        for (ErrorCode code : ErrorCode.values()) {
            results.add(new Result.Failure(code, "what went wrong: " + code));
        }
        return results;
    }

    /** Every message a client sends: its hello, then a request of each call. */
    public static List<Message> everyClientMessage(String codecName) {
        List<Message> messages = new ArrayList<>();
        messages.add(new Hello(Hello.PROTOCOL_VERSION, codecName, "every-message", "token ✓"));
        long id = 1;
        for (Call call : everyCall()) {
            messages.add(new Request(id++, call));
        }
        return messages;
    }

    /** Every message an agent sends after its hello reply: responses, stream frames, stream ends, events. */
    public static List<Message> everyServerMessage() {
        List<Message> messages = new ArrayList<>();
        long id = 1;
        for (Result result : everyResult()) {
            messages.add(new Response(id++, result));
        }
        for (Value value : everyValue()) {
            Reading reading = value instanceof Value.Absent
                    ? Reading.unavailable("s", 5, 9, "none")
                    : Reading.ok("s", 5, 9, value);
            messages.add(new StreamData(3, reading));
        }
        everyReading().forEach(r -> messages.add(new StreamData(Long.MAX_VALUE, r)));
        messages.add(new StreamEnded(3, "sensor removed"));
        messages.add(new StreamEnded(4, ""));
        for (Event.Type type : Event.Type.values()) {
            SensorState state = type == Event.Type.SENSOR_STATE ? SensorState.STREAMING : null;
            messages.add(new EventNotice(new Event(type, "DUMMY_0", state, 123_456L, "detail " + type)));
        }
        return messages;
    }
}
