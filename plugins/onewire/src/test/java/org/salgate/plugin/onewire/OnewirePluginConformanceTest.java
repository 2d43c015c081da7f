package org.salgate.plugin.onewire;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.SilentServer;
import org.salgate.sensorml.ChannelConfig;
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

    @Override
    protected boolean fixtureThread(Thread thread) {
        return thread.getName().startsWith("fake-owserver");
    }
}
