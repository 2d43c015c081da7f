package org.salgate.plugin.serial;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The serial plugin passes the suite (profile devices) on a socat pair of pseudo-terminals at
 * 115200 baud, an instrument writing a weather station's line every 5 ms: the device that vanishes
 * is socat stopped and started again (the cable pulled and plugged back), the device that never
 * answers a second pair on which nothing is written.
 */
@Tag("devices")
class SerialPluginConformanceDeviceTest extends AbstractDevicePluginConformanceTest {

    private static final List<ChannelConfig> CHANNELS = List.of(
            new ChannelConfig("temperature", "", "Cel", 1, 0, ChannelConfig.Access.READ, null, null,
                    Map.of("group", "t")),
            new ChannelConfig("pressure", "", "Pa", 100, 0, ChannelConfig.Access.READ, null, null,
                    Map.of("group", "p")),
            new ChannelConfig("humidity", "", "%", 1, 0, ChannelConfig.Access.READ, null, null,
                    Map.of("group", "h", "type", "integer")),
            ChannelConfig.read("lines", "", Map.of("count", "lines")));
    private static final Map<String, String> STATION = Map.of("format", "pattern",
            "pattern", "T=(?<t>-?[0-9.]+)C H=(?<h>[0-9]+)% P=(?<p>[0-9.]+)hPa");
    private static final Map<String, Value> EXPECTED = Map.of("station.temperature", Value.of(21.5),
            "station.pressure", Value.of(101320.0), "station.humidity", Value.of(40L));

    private SocatLine line;
    private SocatLine silent;

    @BeforeEach
    void plugIn() throws Exception {
        line = new SocatLine();
        line.speak("T=21.5C H=40% P=1013.2hPa", 5);
    }

    @AfterEach
    void unplug() throws Exception {
        line.close();
        if (silent != null) {
            silent.close();
        }
    }

    @Override
    protected void stopDevice() throws Exception {
        line.stop();
    }

    @Override
    protected void startDevice() throws Exception {
        line.start();
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("station", "serial", "serial:" + line.device() + "?baud=115200", STATION,
                List.of(), List.of(), CHANNELS);
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SocatLine();
        // its values only: the counts are the agent's own, current whatever the instrument does
        return new ProtocolConfig("mute", "serial", "serial:" + silent.device() + "?baud=115200", STATION,
                List.of(), List.of(), CHANNELS.subList(0, 3));
    }

    /** An instrument silent since its port opened reads UNAVAILABLE, saying so, once a second has passed. */
    @Override
    protected Reading.Status unansweredReadStatus() {
        return Reading.Status.UNAVAILABLE;
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of(line.dir() + "/*", "/dev/shm/salgate-serial-*/*"));
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return EXPECTED.get(sensorId);
    }

    @Override
    protected void checkReading(String sensorId, Reading reading) {
        super.checkReading(sensorId, reading);
        if (sensorId.equals("station.lines")) {
            long lines = ((Value.Int) reading.value()).value();
            if (lines < 0) {
                throw new AssertionError("a negative count of lines: " + reading);
            }
        }
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                bad("pattern", Map.of("format", "pattern", "pattern", "T=(?<t>[0-9"), CHANNELS),
                bad("max-line", Map.of("max-line", "3"), List.of(ChannelConfig.read("altitude", "m", Map.of()))),
                bad("height", Map.of(), List.of(ChannelConfig.read("h", "m", Map.of("field", "height")))),
                bad("does not exist", Map.of(), List.of(ChannelConfig.read("altitude", "m", Map.of())), "/missing"));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return bad(named, parameters, channels, "/device");
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels,
                                 String port) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named.replace(' ', '-'), "serial",
                "serial:" + line.dir() + port, parameters, List.of(), List.of(), channels), named);
    }

    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().equals("tck-instrument");
    }
}
