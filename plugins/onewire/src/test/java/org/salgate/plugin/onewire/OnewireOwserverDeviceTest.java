package org.salgate.plugin.onewire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.KitAgent;
import org.salgate.plugin.tck.SilentServer;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The 1-Wire plugin against Debian's owserver with a fake bus of a DS18S20 (family 10) and a
 * DS18B20 (family 28), whose temperatures change at every read: the conformance kit (owserver
 * stopped and started again while the agent runs), and values checked against owread's.
 */
@Tag("devices")
class OnewireOwserverDeviceTest extends AbstractDevicePluginConformanceTest {

    private OwserverProcess owserver;
    private SilentServer silent;
    private String ds18s20;
    private String ds18b20;

    @BeforeEach
    void startOwserver() throws Exception {
        owserver = new OwserverProcess("10,28");
        List<String> devices = owserver.devices();
        ds18s20 = devices.stream().filter(d -> d.startsWith("/10.")).findFirst().orElseThrow();
        ds18b20 = devices.stream().filter(d -> d.startsWith("/28.")).findFirst().orElseThrow();
    }

    @AfterEach
    void stopOwserver() throws Exception {
        owserver.close();
        if (silent != null) {
            silent.close();
        }
    }

    private List<ChannelConfig> channels() {
        return List.of(
                ChannelConfig.read("air", "Cel", Map.of("path", ds18s20 + "/temperature")),
                ChannelConfig.read("water", "Cel", Map.of("path", ds18b20 + "/temperature", "uncached", "true")),
                ChannelConfig.read("water-family", "", Map.of("path", ds18b20 + "/family")),
                ChannelConfig.read("water-type", "", Map.of("path", ds18b20 + "/type")));
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
        return new ProtocolConfig("bus", "onewire", owserver.endpoint(), Map.of(), List.of(), List.of(), channels());
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SilentServer();
        return new ProtocolConfig("mute", "onewire", "tcp:127.0.0.1:" + silent.port(), Map.of("timeout-ms", "5000"),
                List.of(), List.of(), channels());
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of("127.0.0.1:*"));
    }

    /** Temperatures in Cel within the DS18x20's range; the family and type as owserver names them. */
    @Override
    protected void checkReading(String sensorId, Reading reading) {
        super.checkReading(sensorId, reading);
        switch (sensorId) {
            case "bus.air", "bus.water" -> {
                assertEquals("Cel", reading.unit(), sensorId);
                double t = ((Value.Num) reading.value()).value();
                assertTrue(t >= -55 && t <= 125, sensorId + " read " + t);
            }
            case "bus.water-family" -> assertEquals(Value.of("28"), reading.value());
            case "bus.water-type" -> assertEquals(Value.of("DS18B20"), reading.value());
            default -> {
            }
        }
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                bad("path", List.of(ChannelConfig.read("x", "Cel", Map.of("path", ds18b20 + " temperature")))),
                bad("colour", List.of(ChannelConfig.read("x", "Cel", Map.of("path", ds18b20 + "/temperature",
                        "colour", "blue")))));
    }

    private BadConfiguration bad(String named, List<ChannelConfig> channels) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named, "onewire", owserver.endpoint(), Map.of(),
                List.of(), List.of(), channels), named);
    }

    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().startsWith("process reaper");
    }

    @Test
    void theDriverReadsWhatOwreadReadsAndListsTheDevicesOwdirLists() throws Exception {
        ProtocolConfig config = protocol();
        OnewireSettings settings = OnewireSettings.of(config);
        try (OnewireProtocol p = new OnewireProtocol(config, settings, config.endpoint(),
                () -> new Owserver("127.0.0.1", owserver.port(), 2000, true))) {
            p.connect();
            assertEquals(owserver.devices().stream().map(d -> d.substring(1, 3) + " " + d).toList(), p.devices());
            List<ChannelValue> values = p.read(Channels.reads(channels()));
            for (ChannelValue v : values) {
                assertTrue(v.ok(), v.error());
            }
            // the fake temperatures change at every read: both are decimal numbers, even a whole one
            assertTrue(values.get(0).value() instanceof Value.Num);
            assertTrue(OnewireChannel.Kind.DECIMAL.value(owserver.read(ds18s20 + "/temperature").getBytes())
                    instanceof Value.Num);
            assertEquals(Value.of(owserver.read(ds18b20 + "/family").strip()), values.get(2).value());
            assertEquals(Value.of(owserver.read(ds18b20 + "/type").strip()), values.get(3).value());
        }
    }

    @Test
    void discoveryFindsTheDevicesOwdirListsEachATemperatureInCelReadFromOwserver() throws Exception {
        for (String directory : List.of("/", "/bus.0")) {
            ProtocolConfig config = withParameters(protocol(), Map.of("discover", directory));
            OnewireSettings settings = OnewireSettings.of(config);
            try (OnewireProtocol p = new OnewireProtocol(config, settings, config.endpoint(),
                    () -> new Owserver("127.0.0.1", owserver.port(), 2000, true))) {
                p.connect();
                List<ChannelConfig> found = p.discover();
                assertEquals(owserver.devices().stream().map(d -> d.substring(1).replace('.', '-')).toList(),
                        found.stream().map(ChannelConfig::name).toList(), directory);
                String prefix = directory.equals("/") ? "" : directory;
                assertEquals(List.of(prefix + ds18s20 + "/temperature", prefix + ds18b20 + "/temperature"),
                        found.stream().map(c -> c.attributes().get("path")).toList());
                for (ChannelValue v : p.read(Channels.reads(found))) {
                    assertTrue(v.ok(), v.error());
                    double t = ((Value.Num) v.value()).value();
                    assertTrue(t >= -55 && t <= 125, directory + ": read " + t);
                }
                assertTrue(found.stream().allMatch(c -> c.unit().equals("Cel")), found.toString());
            }
        }
    }

    @Test
    void theAgentServesEachProbeOwserverListsAsASensorInCel() throws Exception {
        try (KitAgent agent = start(withParameters(protocol(), Map.of("discover", "/")))) {
            var s = agent.session();
            for (String device : List.of(ds18s20, ds18b20)) {
                String id = "bus." + device.substring(1).replace('.', '-');
                await(id + " found", () -> agent.agent().sensors().stream().anyMatch(i -> i.id().equals(id)));
                Reading r = s.read(id, "read", Map.of());
                assertEquals(Reading.Status.OK, r.status(), r.error());
                assertEquals("Cel", r.unit());
                double t = ((Value.Num) r.value()).value();
                assertTrue(t >= -55 && t <= 125, id + " read " + t);
            }
        }
    }

    @Test
    void aDeviceNotOnTheBusFailsItsChannelNamingItWhileTheOthersRead() throws Exception {
        List<ChannelConfig> channels = List.of(
                ChannelConfig.read("gone", "Cel", Map.of("path", "/28.000000000000/temperature")),
                ChannelConfig.read("water", "Cel", Map.of("path", ds18b20 + "/temperature")));
        ProtocolConfig config = new ProtocolConfig("bus", "onewire", owserver.endpoint(), Map.of(), List.of(),
                List.of(), channels);
        try (KitAgent agent = start(config)) {
            var s = agent.session();
            Reading gone = s.read("bus.gone", "read", Map.of());
            assertFalse(gone.status() == Reading.Status.OK, gone.toString());
            assertTrue(gone.error().contains("28.000000000000"), gone.error());
            assertEquals(Reading.Status.OK, s.read("bus.water", "read", Map.of()).status());
        }
    }
}
