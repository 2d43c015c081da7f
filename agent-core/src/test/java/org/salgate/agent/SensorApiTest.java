package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.agent.testing.TestPlugin;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.Value;

@Timeout(30)
class SensorApiTest {

    private AgentFixture fixture;
    private FakeSession session;

    @BeforeEach
    void start() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(3,
                Map.of("throwing", "T_1", "unavailable", "T_2")));
        session = fixture.connect();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void listSensorsGivesEverySensorWithItsProtocolAndState() throws Exception {
        List<SensorInfo> all = fixture.ok(session, new Call.ListSensors(false), Result.Sensors.class).sensors();
        assertEquals(List.of("T_0", "T_1", "T_2"), all.stream().map(SensorInfo::id).toList());
        assertTrue(all.stream().allMatch(s -> s.protocol().equals("test") && s.state() == SensorState.IDLE));
    }

    @Test
    void listActiveSensorsGivesOnlyStreamingOnes() throws Exception {
        assertTrue(fixture.ok(session, new Call.ListSensors(true), Result.Sensors.class).sensors().isEmpty());
        fixture.stream(session, "T_0", "read", 1000);
        List<SensorInfo> active = fixture.ok(session, new Call.ListSensors(true), Result.Sensors.class).sensors();
        assertEquals(List.of("T_0"), active.stream().map(SensorInfo::id).toList());
        assertEquals(SensorState.STREAMING, active.get(0).state());
    }

    @Test
    void unknownSensorGetsAClearError() throws Exception {
        for (Call c : List.of(new Call.DescribeSensor("NOPE"), new Call.ListCommands("NOPE"),
                new Call.Execute("NOPE", "read", Map.of()), new Call.RemoveSensor("NOPE"),
                new Call.SetupStream("NOPE", "read", Map.of(), 10))) {
            Result.Failure f = fixture.fails(session, c, ErrorCode.UNKNOWN_SENSOR);
            assertTrue(f.message().contains("NOPE"), f.message());
        }
    }

    @Test
    void unknownCommandGetsAClearErrorListingTheCommands() throws Exception {
        Result.Failure f = fixture.fails(session, new Call.Execute("T_0", "jump", Map.of()), ErrorCode.UNKNOWN_COMMAND);
        assertTrue(f.message().contains("jump") && f.message().contains("read"), f.message());
        fixture.fails(session, new Call.SetupStream("T_0", "jump", Map.of(), 10), ErrorCode.UNKNOWN_COMMAND);
    }

    @Test
    void executeReturnsAReadingFromThePlugin() throws Exception {
        Reading r = fixture.execute(session, "T_0", "read", Map.of("scale", "2"));
        assertEquals(Reading.Status.OK, r.status());
        assertEquals(Value.of(84.0), r.value());
        assertEquals("T_0", r.sensorId());
        assertTrue(r.timestampMicros() > 1_600_000_000_000_000L, "timestamp in microseconds");
    }

    @Test
    void aReadingIsInTheUnitItsCommandDeclaresElseInThatOfTheSensorsOnlyOutput() throws Exception {
        Reading declared = fixture.execute(session, "T_0", "read", Map.of());
        assertEquals("1", declared.unit());
        assertEquals(0, declared.deviceTimeMicros());
        assertEquals("1", fixture.execute(session, "T_0", "plain", Map.of()).unit(), "the output's unit");
    }

    @Test
    void aUnitAndADeviceTimeTheProtocolGivesAreKept() throws Exception {
        Reading r = fixture.execute(session, "T_0", "stamped", Map.of());
        assertEquals(Reading.Status.OK, r.status(), r.error());
        assertEquals(TestPlugin.STAMPED_UNIT, r.unit());
        assertEquals(TestPlugin.STAMPED_AT, r.deviceTimeMicros());
        assertTrue(r.timestampMicros() > TestPlugin.STAMPED_AT, "the timestamp is the agent's");
    }

    @Test
    void executeFillsInDefaultArguments() throws Exception {
        Reading r = fixture.execute(session, "T_0", "read", Map.of());
        assertEquals(Value.of(42.0), r.value());
        assertEquals(Map.of("scale", "1"), TestPlugin.ARGUMENTS.get(TestPlugin.ARGUMENTS.size() - 1));
    }

    @Test
    void argumentOutOfBoundsIsRefusedNamingTheBounds() throws Exception {
        Result.Failure f = fixture.fails(session, new Call.Execute("T_0", "read", Map.of("scale", "11")),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(f.message().contains("scale") && f.message().contains("10"), f.message());
        fixture.fails(session, new Call.Execute("T_0", "read", Map.of("scale", "-1")), ErrorCode.INVALID_ARGUMENT);
        fixture.fails(session, new Call.Execute("T_0", "count", Map.of("n", "9")), ErrorCode.INVALID_ARGUMENT);
        fixture.fails(session, new Call.SetupStream("T_0", "read", Map.of("scale", "99"), 10),
                ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void malformedArgumentsAreRefused() throws Exception {
        fixture.fails(session, new Call.Execute("T_0", "read", Map.of("scale", "lots")), ErrorCode.INVALID_ARGUMENT);
        fixture.fails(session, new Call.Execute("T_0", "count", Map.of("n", "2.5")), ErrorCode.INVALID_ARGUMENT);
        fixture.fails(session, new Call.Execute("T_0", "flag", Map.of("on", "maybe")), ErrorCode.INVALID_ARGUMENT);
        assertEquals(Reading.Status.OK, fixture.execute(session, "T_0", "flag", Map.of("on", "true")).status());
    }

    @Test
    void unknownOrMissingArgumentsAreRefused() throws Exception {
        Result.Failure unknown = fixture.fails(session, new Call.Execute("T_0", "read", Map.of("speed", "1")),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(unknown.message().contains("speed"), unknown.message());
        Result.Failure missing = fixture.fails(session, new Call.Execute("T_0", "flag", Map.of()),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(missing.message().contains("'on'"), missing.message());
        // optional without default: left out
        fixture.execute(session, "T_0", "count", Map.of());
        assertEquals(Map.of(), TestPlugin.ARGUMENTS.get(TestPlugin.ARGUMENTS.size() - 1));
    }

    @Test
    void pluginThatThrowsGivesAnErrorReadingAndTheSessionKeepsWorking() throws Exception {
        Reading r = fixture.execute(session, "T_1", "read", Map.of());
        assertEquals(Reading.Status.ERROR, r.status());
        assertTrue(r.error().contains("boom"), r.error());
        assertEquals(Reading.Status.OK, fixture.execute(session, "T_0", "read", Map.of()).status());
    }

    @Test
    void unavailableValueGivesAnUnavailableReading() throws Exception {
        Reading r = fixture.execute(session, "T_2", "read", Map.of());
        assertEquals(Reading.Status.UNAVAILABLE, r.status());
        assertTrue(r.error().contains("no such probe"), r.error());
    }

    @Test
    void describeGivesTheSensorsSensorMl() throws Exception {
        String xml = fixture.ok(session, new Call.DescribeSensor("T_0"), Result.Document.class).xml();
        SensorDescription d = SensorMl.read(xml);
        assertEquals("T_0", d.id());
        assertEquals("test", d.protocol());
    }

    @Test
    void listCommandsGivesTheCml() throws Exception {
        String xml = fixture.ok(session, new Call.ListCommands("T_0"), Result.Document.class).xml();
        List<CommandDescription> commands = Cml.read(xml);
        assertEquals(List.of("read", "slow", "once", "flag", "count", "plain", "stamped"),
                commands.stream().map(CommandDescription::id).toList());
    }

    @Test
    void addSensorFromSensorMlThenRemoveIt() throws Exception {
        String xml = SensorMl.write(new SensorDescription("T_NEW", "added", "test", "",
                List.of(Output.quantity("value", "http://example.org/value", "1")), SamplingBounds.ANY));
        SensorInfo added = fixture.ok(session, new Call.AddSensor(xml), Result.Sensor.class).sensor();
        assertEquals("T_NEW", added.id());
        assertEquals(Value.of(42.0), fixture.execute(session, "T_NEW", "read", Map.of()).value());
        fixture.fails(session, new Call.AddSensor(xml), ErrorCode.CONFLICT);

        long stream = fixture.stream(session, "T_NEW", "read", 1);
        fixture.ok(session, new Call.RemoveSensor("T_NEW"), Result.Ack.class);
        session.await(org.salgate.wire.StreamEnded.class, e -> e.streamId() == stream, 1, AgentFixture.WAIT_MS);
        fixture.fails(session, new Call.Execute("T_NEW", "read", Map.of()), ErrorCode.UNKNOWN_SENSOR);
    }

    @Test
    void addSensorForAnUnknownProtocolOrFromBadXmlIsRefused() throws Exception {
        String xml = SensorMl.write(new SensorDescription("T_X", "added", "nosuch", "",
                List.of(Output.quantity("value", "http://example.org/value", "1")), SamplingBounds.ANY));
        fixture.fails(session, new Call.AddSensor(xml), ErrorCode.UNKNOWN_PROTOCOL);
        fixture.fails(session, new Call.AddSensor("<not-sensorml/>"), ErrorCode.INVALID_DOCUMENT);
        fixture.fails(session, new Call.AddSensor("garbage <"), ErrorCode.INVALID_DOCUMENT);
    }
}
