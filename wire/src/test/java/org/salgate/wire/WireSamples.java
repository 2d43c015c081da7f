package org.salgate.wire;

import org.salgate.model.Value;
import org.salgate.model.Reading;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.Event;
import org.salgate.model.ErrorCode;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.model.ProtocolInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One message of every kind, with every call, result and value variant, plus values a text
 * format could bend. Shared with other modules' tests through this module's test jar.
 */
public final class WireSamples {

    private static final Reading READING = Reading.ok("DUMMY_0", 1_700_000_000_000_000L, 7, Value.of(21.5));

    private WireSamples() {}

    /**
     * Every kind of call, each operation's at least once (a test holds this list to the operations
     * {@link org.salgate.model.Operation} declares), with arguments where a codec or a transport could slip.
     */
    public static List<Call> everyCall() {
        return List.of(new Call.ListSensors(true), new Call.ListSensors(false),
                new Call.DescribeSensor("DUMMY_1"), new Call.AddSensor("<sml/>"),
                new Call.AddSensor("<sml:PhysicalComponent gml:id=\"x\">\u00e9</sml:PhysicalComponent>"),
                new Call.RemoveSensor("DUMMY_2"), new Call.ListCommands("DUMMY_3"),
                new Call.Execute("DUMMY_4", "payload", Map.of("size", "10")),
                new Call.Execute("DUMMY_0", "payload", Map.of("size", "81920", "empty", "")),
                new Call.SetupStream("DUMMY_5", "read", Map.of(), 250),
                new Call.SetupStream("DUMMY_5", "read", Map.of(), 5, SlowConsumerPolicy.DROP_OLDEST),
                new Call.SetupStream("DUMMY_6", "read", Map.of(), 0, SlowConsumerPolicy.DISCONNECT),
                new Call.SetupStream("DUMMY_6", "read", Map.of("unit", "C"), 100, null, true),
                new Call.SetupStream("DUMMY_6", "read", Map.of(), 100, SlowConsumerPolicy.DROP_OLDEST, true),
                new Call.StartStream(9), new Call.StartStream(Long.MAX_VALUE), new Call.StopStream(9),
                new Call.StopStream(0), new Call.ListProtocols(), new Call.AddProtocol("<platform/>"),
                new Call.RemoveProtocol("os"), new Call.GetPlatformConfig(), new Call.SubscribeEvents(),
                new Call.UnsubscribeEvents(), new Call.Echo(Value.of(4L)), new Call.EchoReading(READING));
    }

    /**
     * Every kind of result, each operation's at least once (a test holds this list to the operations
     * {@link org.salgate.model.Operation} declares), and a failure.
     */
    public static List<Result> everyResult() {
        return List.of(Result.ack(), new Result.Sensors(List.of()),
                new Result.Sensors(List.of(new SensorInfo("DUMMY_0", "dummy", SensorState.STREAMING, "a dummy"),
                        new SensorInfo("FREE_MEMORY", "os", SensorState.DISABLED, ""))),
                new Result.Sensor(new SensorInfo("X", "dummy", SensorState.DISCONNECTED, "x")),
                new Result.Document("<xml/>"), new Result.Document("<?xml version=\"1.0\"?><doc>\u00fc</doc>"),
                new Result.ReadingResult(READING), new Result.StreamHandle(12),
                new Result.StreamHandle(13, SlowConsumerPolicy.DROP_OLDEST),
                new Result.StreamStopped(new StreamCounts(1_000_000_000_000L, 7, 0)),
                new Result.Protocols(List.of(new ProtocolInfo("os", "os", "os", 8),
                        new ProtocolInfo("dummy", "dummy", "virtual", 20))),
                new Result.Echoed(Value.of("three")), new Result.Failure(ErrorCode.UNKNOWN_SENSOR, "no such sensor"));
    }

    public static List<Message> everyMessage() {
        List<Value> values = List.of(Value.of(3.25), Value.of(-42L), Value.of("on"), Value.of(new byte[] {1, 2, 3}),
                Value.absent());
        List<Message> all = new ArrayList<>();
        all.add(Hello.of("protobuf", "test"));
        all.add(new Hello(3, "json", "", "secret"));
        all.add(HelloReply.accept("agent-1"));
        all.add(HelloReply.accept("agent-1", "reader"));
        all.add(HelloReply.refuse("agent-1", "wrong version"));
        long id = 1;
        for (Call c : everyCall()) {
            all.add(new Request(id++, c));
        }
        for (Result r : everyResult()) {
            all.add(new Response(id++, r));
        }
        long seq = 0;
        for (Value v : values) {
            Reading reading = v instanceof Value.Absent
                    ? Reading.unavailable("CPU_TEMPERATURE", 5, seq++, "no probe")
                    : Reading.ok("S", 5, seq++, v);
            all.add(new StreamData(3, reading));
        }
        all.add(new StreamData(3, Reading.error("S", 6, seq++, "plugin failed")));
        all.add(new StreamData(3, Reading.ok("meter.voltage", 7, seq++, Value.of(230.5)).withUnit("V")
                .withDeviceTime(1_700_000_000_000_001L)));
        all.add(new StreamData(3, Reading.disconnected("meter.voltage", 8, seq, "device meter (tcp:10.0.0.5:502)"
                + " is disconnected: Connection refused; next attempt in 2.0 s").withUnit("V")));
        all.add(new StreamEnded(3, "sensor removed"));
        all.add(new StreamEnded(4, "the client stopped reading", new StreamCounts(10, 2, 300)));
        all.add(new EventNotice(new Event(Event.Type.SENSOR_STATE, "DUMMY_0", SensorState.IDLE, 8, "stopped")));
        all.add(new EventNotice(new Event(Event.Type.PROTOCOL_ADDED, "os", null, 9, "")));
        all.add(new EventNotice(new Event(Event.Type.SENSOR_ADDED, "X", null, 10, ""), 3));
        all.add(new EventNotice(new Event(Event.Type.EVENTS_MISSED, "", null, 11, "3 events"), 3));
        for (Value v : awkwardValues()) {
            all.add(new Request(id++, new Call.Echo(v)));
        }
        all.add(new Response(id, new Result.Document("\n  <?xml version=\"1.0\"?>\r\n<sml:PhysicalSystem a=\"&amp;\"/>\n")));
        all.add(new Request(id, new Call.Execute("S", "c", Map.of("a b", "<&>", "", " x ", "k\u0001", "v"))));
        return all;
    }

    /** Values that a text format could bend: edge numbers, control characters, blanks. */
    public static List<Value> awkwardValues() {
        byte[] bytes = new byte[300];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return List.of(Value.of(-0.0), Value.of(Double.NaN), Value.of(Double.POSITIVE_INFINITY),
                Value.of(Double.MAX_VALUE), Value.of(Double.MIN_VALUE), Value.of(Long.MIN_VALUE),
                Value.of(Long.MAX_VALUE), Value.of(0L), Value.of(""), Value.of(" "), Value.of("\r\n"),
                Value.of("temp\u00e9rature \u2713 \u6e29\u5ea6 \u0000 end \uD83D\uDE00"), Value.of(new byte[0]),
                Value.of(bytes));
    }
}
