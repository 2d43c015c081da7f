package org.salgate.plugin.onewire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.model.Value;
import org.salgate.plugin.tck.KitAgent;
import org.salgate.plugin.tck.KitSession;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.SilentServer;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.ProtocolConfig;

/** The 1-Wire plugin passes the suite against an in-JVM owserver ({@link FakeOwserver}). */
class OnewirePluginConformanceTest extends AbstractDevicePluginConformanceTest {

    static final Map<String, String> BUS = Map.of(
            "/28.000028D70000/temperature", "     21.5",
            "/26.F2FBE3467CC2/humidity", "     45.25",
            "/1D.54F81BE8E78D/counter.A", "        1234");
    private static final List<ChannelConfig> CHANNELS = List.of(
            ChannelConfig.read("temperature", "Cel", Map.of("path", "/28.000028D70000/temperature")),
            ChannelConfig.read("humidity", "%", Map.of("path", "/26.F2FBE3467CC2/humidity", "uncached", "true")),
            ChannelConfig.read("rain", "", Map.of("path", "/1D.54F81BE8E78D/counter.A")));
    private static final Map<String, Value> EXPECTED = Map.of("bus.temperature", Value.of(21.5),
            "bus.humidity", Value.of(45.25), "bus.rain", Value.of(1234L));

    private FakeOwserver owserver;
    private SilentServer silent;

    @BeforeEach
    void startTheOwserver() throws Exception {
        owserver = new FakeOwserver(BUS);
    }

    @AfterEach
    void stopTheOwservers() throws Exception {
        owserver.close();
        if (silent != null) {
            silent.close();
        }
    }

    @Override
    protected void startDevice() throws Exception {
        owserver.start();
    }

    @Override
    protected void stopDevice() throws Exception {
        owserver.stop();
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("bus", "onewire", "tcp:127.0.0.1:" + owserver.port(), Map.of(), List.of(),
                List.of(), CHANNELS);
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SilentServer();
        return new ProtocolConfig("mute", "onewire", "tcp:127.0.0.1:" + silent.port(), Map.of("timeout-ms", "5000"),
                List.of(), List.of(), CHANNELS);
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of("127.0.0.1:*"));
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return EXPECTED.get(sensorId);
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                bad("path", Map.of(), List.of(Channels.read("x", "path", "28.000028D70000/temperature"))),
                bad("colour", Map.of(), List.of(Channels.read("x", "path", "/28.000028D70000/temperature",
                        "colour", "blue"))),
                bad("uncached", Map.of(), List.of(Channels.read("x", "path", "/28.000028D70000/temperature",
                        "uncached", "sometimes"))),
                bad("timeout-ms", Map.of("timeout-ms", "0"), CHANNELS),
                bad("discover", Map.of("discover", "bus.0"), CHANNELS));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named, "onewire", "tcp:127.0.0.1:" + owserver.port(),
                parameters, List.of(), List.of(), channels), named);
    }

    private static boolean stateOf(Event e, String sensor, SensorState state) {
        return e.type() == Event.Type.SENSOR_STATE && e.subject().equals(sensor) && e.state() == state;
    }

    @Test
    void aDeviceOwserverListsIsServedAsASensorWithItsUnitAndOneGoneFromTheBusTurnsDisconnectedUntilBack()
            throws Exception {
        KitAgent agent = start(neighbour());
        KitSession s = agent.session();
        s.ok(new Call.SubscribeEvents(), Result.Ack.class);
        ProtocolConfig listing = withParameters(protocol(), Map.of("discover", "/", "discover-interval-ms", "50"));
        s.ok(new Call.AddProtocol(Pcml.write(new org.salgate.sensorml.PlatformConfig(List.of(listing)))),
                Result.Protocols.class);
        for (String id : List.of("bus.28-000028D70000", "bus.26-F2FBE3467CC2", "bus.1D-54F81BE8E78D")) {
            s.events(e -> e.type() == Event.Type.SENSOR_ADDED && e.subject().equals(id), 1, id + " added");
        }
        Reading t = s.read("bus.28-000028D70000", "read", Map.of());
        assertEquals(Reading.Status.OK, t.status(), t.error());
        assertEquals(Value.of(21.5), t.value());
        assertEquals("Cel", t.unit());
        Reading h = s.read("bus.26-F2FBE3467CC2", "read", Map.of());
        assertEquals(Value.of(45.25), h.value());
        assertEquals("%", h.unit());
        String sensorMl = s.ok(new Call.DescribeSensor("bus.28-000028D70000"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("DS18B20") && sensorMl.contains("code=\"Cel\""), sensorMl);
        assertEquals(Value.of(21.5), s.read("bus.temperature", "read", Map.of()).value(), "the configured channel");

        Map<String, String> gone = owserver.unplug("/26.F2FBE3467CC2");
        s.events(e -> stateOf(e, "bus.26-F2FBE3467CC2", SensorState.DISCONNECTED), 1, "the humidity probe gone");
        assertEquals(Reading.Status.DISCONNECTED, s.read("bus.26-F2FBE3467CC2", "read", Map.of()).status());
        assertEquals(Reading.Status.OK, s.read("bus.28-000028D70000", "read", Map.of()).status(), "the others read");
        owserver.values.putAll(gone);
        s.events(e -> stateOf(e, "bus.26-F2FBE3467CC2", SensorState.IDLE), 1, "the humidity probe back");
        assertEquals(Value.of(45.25), s.read("bus.26-F2FBE3467CC2", "read", Map.of()).value());
        neighbourServes(s);
    }

    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().startsWith("fake-owserver");
    }
}
