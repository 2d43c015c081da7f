package org.salgate.plugin.tck;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.salgate.model.Value;
import org.salgate.sensorml.ProtocolConfig;

/** The dummy plugin passes the suite (here, since agent-core's tests use it: it cannot depend on the suite). */
class DummyPluginConformanceTest extends AbstractPluginConformanceTest {

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "3"));
    }

    @Override
    protected Set<String> requiredSensors() {
        return Set.of("DUMMY_0", "DUMMY_1", "DUMMY_2");
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return Value.of(42.0);
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                new BadConfiguration(new ProtocolConfig("many", "dummy", "virtual", Map.of("sensors", "100001")),
                        "sensors"),
                new BadConfiguration(new ProtocolConfig("prefixed", "dummy", "virtual", Map.of("prefix", "9lives")),
                        "prefix"),
                new BadConfiguration(new ProtocolConfig("elsewhere", "dummy", "os", Map.of()), "virtual"));
    }
}
