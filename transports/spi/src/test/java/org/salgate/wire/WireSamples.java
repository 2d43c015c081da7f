package org.salgate.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One message of every kind, with every call, result and value variant. */
final class WireSamples {

    private WireSamples() {}

    static List<Message> everyMessage() {
        Reading ok = Reading.ok("DUMMY_0", 1_700_000_000_000_000L, 7, Value.of(21.5));
        List<Value> values = List.of(Value.of(3.25), Value.of(-42L), Value.of("on"), Value.of(new byte[] {1, 2, 3}),
                Value.absent());
        List<Call> calls = List.of(new Call.ListSensors(true), new Call.ListSensors(false),
                new Call.DescribeSensor("DUMMY_1"), new Call.AddSensor("<sml/>"), new Call.RemoveSensor("DUMMY_2"),
                new Call.ListCommands("DUMMY_3"), new Call.Execute("DUMMY_4", "payload", Map.of("size", "10")),
                new Call.SetupStream("DUMMY_5", "read", Map.of(), 250), new Call.StartStream(9),
                new Call.StopStream(9), new Call.ListProtocols(), new Call.AddProtocol("<platform/>"),
                new Call.RemoveProtocol("os"), new Call.GetPlatformConfig(), new Call.SubscribeEvents(),
                new Call.UnsubscribeEvents(), new Call.Echo(Value.of(4L)), new Call.EchoReading(ok));
        List<Result> results = List.of(Result.ack(),
                new Result.Sensors(List.of(new SensorInfo("DUMMY_0", "dummy", SensorState.STREAMING, "a dummy"),
                        new SensorInfo("FREE_MEMORY", "os", SensorState.DISABLED, ""))),
                new Result.Sensor(new SensorInfo("X", "dummy", SensorState.DISCONNECTED, "x")),
                new Result.Document("<xml/>"), new Result.ReadingResult(ok), new Result.StreamHandle(12),
                new Result.Protocols(List.of(new ProtocolInfo("os", "os", "os", 8))),
                new Result.Echoed(Value.of("three")), new Result.Failure(ErrorCode.UNKNOWN_SENSOR, "no such sensor"));

        List<Message> all = new ArrayList<>();
        all.add(Hello.of("protobuf", "test"));
        all.add(new Hello(3, "json", "", "secret"));
        all.add(HelloReply.accept("agent-1"));
        all.add(HelloReply.refuse("agent-1", "wrong version"));
        long id = 1;
        for (Call c : calls) {
            all.add(new Request(id++, c));
        }
        for (Result r : results) {
            all.add(new Response(id++, r));
        }
        long seq = 0;
        for (Value v : values) {
            Reading reading = v instanceof Value.Absent
                    ? Reading.unavailable("CPU_TEMPERATURE", 5, seq++, "no probe")
                    : Reading.ok("S", 5, seq++, v);
            all.add(new StreamData(3, reading));
        }
        all.add(new StreamData(3, Reading.error("S", 6, seq, "plugin failed")));
        all.add(new StreamEnded(3, "sensor removed"));
        all.add(new EventNotice(new Event(Event.Type.SENSOR_STATE, "DUMMY_0", SensorState.IDLE, 8, "stopped")));
        all.add(new EventNotice(new Event(Event.Type.PROTOCOL_ADDED, "os", null, 9, "")));
        return all;
    }
}
