package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.agent.testing.PluginBuilder;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Result;
import org.salgate.model.Value;

@Timeout(60)
class PlatformTest {

    private AgentFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private static ProtocolConfig protocol(String name, String type, String endpoint, Map<String, String> params) {
        return new ProtocolConfig(name, type, endpoint, params);
    }

    @Test
    void pluginsThatFailToLoadOrOpenDoNotStopTheOthers() throws Exception {
        fixture = AgentFixture.start(new PlatformConfig(List.of(
                protocol("boom", "exploding", "virtual", Map.of()),
                protocol("refuses", "test", "virtual", Map.of("failOpen", "true")),
                protocol("missing", "nosuchtype", "virtual", Map.of()),
                protocol("badport", "test", "serial:/dev/ttyS0", Map.of()),
                protocol("good", "test", "virtual", Map.of("sensors", "2")))));
        FakeSession s = fixture.connect();
        List<ProtocolInfo> protocols = fixture.ok(s, new Call.ListProtocols(), Result.Protocols.class).protocols();
        assertEquals(List.of(new ProtocolInfo("good", "test", "virtual", 2)), protocols);
        assertEquals(2, fixture.agent.sensors().size());
        assertTrue(fixture.agent.pluginTypes().containsKey("exploding"));
        assertTrue(!fixture.agent.pluginTypes().containsKey("unloadable"), "a plugin that cannot load is skipped");
    }

    @Test
    void secondPluginWithTheSameTypeIsRefused() throws Exception {
        // DuplicateTestPlugin (type "test") is registered after TestPlugin; its open would fail.
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        assertEquals(1, fixture.agent.protocols().size());
        FakeSession s = fixture.connect();
        assertEquals(Value.of(42.0), fixture.execute(s, "T_0", "read", Map.of()).value());
    }

    @Test
    void sensorIdsTakenByAnotherProtocolKeepTheSecondProtocolOut() throws Exception {
        fixture = AgentFixture.start(new PlatformConfig(List.of(
                protocol("one", "test", "virtual", Map.of("sensors", "2")),
                protocol("two", "test", "virtual", Map.of("sensors", "2")),
                protocol("three", "test", "virtual", Map.of("sensors", "1", "prefix", "U")))));
        assertEquals(List.of("one", "three"), fixture.agent.protocols().stream().map(ProtocolInfo::name).toList());
    }

    @Test
    void unknownOrDuplicateProtocolIsRefused() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        fixture.fails(s, new Call.RemoveProtocol("nope"), ErrorCode.UNKNOWN_PROTOCOL);
        fixture.fails(s, new Call.AddProtocol("<not pcml"), ErrorCode.INVALID_DOCUMENT);
    }

    @Test
    void addProtocolFromPcmlAtRunTimeAndReadItsConfiguration() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        String pcml = Pcml.write(new PlatformConfig(List.of(
                protocol("more", "test", "virtual:lab", Map.of("sensors", "2", "prefix", "M")))));
        List<ProtocolInfo> added = fixture.ok(s, new Call.AddProtocol(pcml), Result.Protocols.class).protocols();
        assertEquals(List.of(new ProtocolInfo("more", "test", "virtual:lab", 2)), added);
        s.await(EventNotice.class, n -> n.event().type() == Event.Type.PROTOCOL_ADDED, 1, AgentFixture.WAIT_MS);
        s.await(EventNotice.class, n -> n.event().type() == Event.Type.SENSOR_ADDED, 2, AgentFixture.WAIT_MS);
        assertEquals(Value.of(42.0), fixture.execute(s, "M_1", "read", Map.of()).value());
        fixture.fails(s, new Call.AddProtocol(pcml), ErrorCode.CONFLICT);

        String xml = fixture.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
        PlatformConfig config = Pcml.read(xml);
        assertEquals(List.of("test", "more"), config.protocols().stream().map(ProtocolConfig::name).toList());

        String unknownEndpoint = Pcml.write(new PlatformConfig(List.of(
                protocol("usb", "test", "usb:1", Map.of()))));
        Result.Failure f = fixture.fails(s, new Call.AddProtocol(unknownEndpoint), ErrorCode.INVALID_ARGUMENT);
        assertTrue(f.message().contains("usb") && f.message().contains("virtual"), f.message());
    }

    @Test
    void addProtocolLoadsAPluginJarIntoARunningAgent(@TempDir Path dir) throws Exception {
        Path jar = PluginBuilder.jar(PluginBuilder.classDirectory(dir, "extjar"), dir.resolve("ext.jar"));
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), b -> b.pluginDirectories(List.of(dir)));
        FakeSession s = fixture.connect();
        String pcml = Pcml.write(new PlatformConfig(List.of(
                protocol("ext", "extjar", "virtual", Map.of("plugin.jar", jar.toString())))));
        fixture.ok(s, new Call.AddProtocol(pcml), Result.Protocols.class);
        assertEquals(Value.of(7.0), fixture.execute(s, "EXTJAR_0", "read", Map.of()).value());
        fixture.ok(s, new Call.RemoveProtocol("ext"), Result.Ack.class);
        fixture.fails(s, new Call.Execute("EXTJAR_0", "read", Map.of()), ErrorCode.UNKNOWN_SENSOR);
    }
}
