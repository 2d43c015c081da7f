package org.salgate.plugin.tck;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.salgate.sensorml.ProtocolConfig;

/** The OS plugin passes the suite (here, since agent-core's tests use it: it cannot depend on the suite). */
class OsPluginConformanceTest extends AbstractPluginConformanceTest {

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("os", "os", "os", Map.of());
    }

    @Override
    protected Set<String> requiredSensors() {
        return Set.of("FREE_MEMORY", "CPU_USER", "CPU_NICE", "CPU_SYSTEM", "CPU_IDLE", "LOAD_AVG_1", "LOAD_AVG_5",
                "LOAD_AVG_15");
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(new BadConfiguration(new ProtocolConfig("virtual-os", "os", "virtual", Map.of()), "'os'"));
    }
}
