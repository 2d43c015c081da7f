package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.Call;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;

/** The platform configuration an agent answers describes it as it runs, and starts the same platform again. */
@Timeout(30)
class PlatformSnapshotTest {

    @Test
    void configSavedAfterRunTimeChangesStartsAnAgentWithTheSameSensorsAndProtocols(@TempDir Path dir)
            throws Exception {
        Path saved = dir.resolve("saved.pcml");
        List<String> before;
        String configBefore;
        try (AgentFixture first = AgentFixture.start(AgentFixture.testPlatform(3, Map.of()))) {
            FakeSession s = first.connect();
            first.ok(s, new Call.AddSensor(SensorMl.write(added("T_NEW", "test"))), Result.Sensor.class);
            first.ok(s, new Call.RemoveSensor("T_1"), Result.Ack.class);
            first.ok(s, new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(new ProtocolConfig("more", "test",
                    "virtual:lab", Map.of("sensors", "2", "prefix", "M")))))), Result.Protocols.class);
            first.ok(s, new Call.AddSensor(SensorMl.write(added("M_EXTRA", "more"))), Result.Sensor.class);
            configBefore = first.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
            Files.writeString(saved, configBefore);
            before = platform(first, s);
        }
        assertTrue(before.contains("sensor T_NEW of test: added at run time (" + "http://example.org/value" + ")"),
                before.toString());
        assertFalse(before.stream().anyMatch(l -> l.startsWith("sensor T_1 ")), before.toString());
        assertEquals(List.of("T_NEW"), addedIds(configBefore, "test"), configBefore);
        assertEquals(List.of("T_1"), Pcml.read(configBefore).protocols().get(0).removedSensors(), configBefore);
        assertTrue(configBefore.contains("<removedSensor id=\"T_1\"/>"), configBefore);

        try (AgentFixture second = AgentFixture.start(Pcml.read(Files.readString(saved)))) {
            FakeSession s = second.connect();
            assertEquals(before, platform(second, s));
            assertEquals(configBefore, second.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml());
        }
    }

    @Test
    void aSensorRemovedAndAddedAgainUnderItsIdIsSavedAsAdded(@TempDir Path dir) throws Exception {
        String config;
        try (AgentFixture first = AgentFixture.start(AgentFixture.testPlatform(2, Map.of()))) {
            FakeSession s = first.connect();
            first.ok(s, new Call.RemoveSensor("T_0"), Result.Ack.class);
            first.ok(s, new Call.AddSensor(SensorMl.write(added("T_0", "test"))), Result.Sensor.class);
            config = first.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
        }
        try (AgentFixture second = AgentFixture.start(Pcml.read(config))) {
            FakeSession s = second.connect();
            String sensorMl = second.ok(s, new Call.DescribeSensor("T_0"), Result.Document.class).xml();
            assertEquals("added at run time", SensorMl.read(sensorMl).description());
        }
    }

    @Test
    void anUnchangedPlatformIsAnsweredAsItWasGiven() throws Exception {
        PlatformConfig given = AgentFixture.testPlatform(2, Map.of("prefix", "P"));
        try (AgentFixture agent = AgentFixture.start(given)) {
            FakeSession s = agent.connect();
            assertEquals(Pcml.write(given), agent.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml());
        }
    }

    @Test
    void aSavedChangeTheProtocolCannotMakeRefusesTheProtocolNamingTheElement() throws Exception {
        try (AgentFixture agent = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()))) {
            FakeSession s = agent.connect();
            String pcml = Pcml.write(new PlatformConfig(List.of(new ProtocolConfig("more", "test", "virtual",
                    Map.of("prefix", "M", "sensors", "1"), List.of(), List.of("M_7")))));
            Result.Failure f = agent.fails(s, new Call.AddProtocol(pcml), org.salgate.model.ErrorCode.PLUGIN_FAILURE);
            assertTrue(f.message().contains("could not remove sensor M_7 as its <removedSensor id=\"M_7\"/> asks"),
                    f.message());
            assertEquals(List.of("test"), agent.ok(s, new Call.ListProtocols(), Result.Protocols.class).protocols()
                    .stream().map(ProtocolInfo::name).toList());
        }
    }

    private static List<String> addedIds(String pcml, String protocol) throws Exception {
        return Pcml.read(pcml).protocols().stream().filter(p -> p.name().equals(protocol))
                .flatMap(p -> p.addedSensors().stream()).map(SensorDescription::id).toList();
    }

    private static SensorDescription added(String id, String protocol) {
        return new SensorDescription(id, "added at run time", protocol, "",
                List.of(Output.quantity("value", "http://example.org/value", "1")), SamplingBounds.ANY);
    }

    /** One line per protocol and per sensor, in the agent's order, with what describes it. */
    private static List<String> platform(AgentFixture agent, FakeSession s) throws Exception {
        List<String> lines = new ArrayList<>();
        for (ProtocolInfo p : agent.ok(s, new Call.ListProtocols(), Result.Protocols.class).protocols()) {
            lines.add("protocol " + p.name() + " (" + p.type() + ", " + p.endpoint() + "): " + p.sensorCount());
        }
        for (SensorInfo sensor : agent.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors()) {
            SensorDescription d = SensorMl.read(agent.ok(s, new Call.DescribeSensor(sensor.id()),
                    Result.Document.class).xml());
            lines.add("sensor " + sensor.id() + " of " + sensor.protocol() + ": " + d.description() + " ("
                    + d.outputs().get(0).definition() + ")");
        }
        return lines;
    }
}
