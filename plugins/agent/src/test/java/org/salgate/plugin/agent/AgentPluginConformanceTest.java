package org.salgate.plugin.agent;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractPluginConformanceTest;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The relay plugin passes the suite, relaying a lower agent of three dummy sensors on loopback (netty). */
class AgentPluginConformanceTest extends AbstractPluginConformanceTest {

    private Agent lower;

    @BeforeEach
    void startTheLowerAgent() throws Exception {
        lower = Agent.builder().transport("netty").port(0).agentId("lower").platform(new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "3"))))).start();
    }

    @AfterEach
    void stopTheLowerAgent() {
        lower.close();
    }

    private String lowerAddress() {
        return "127.0.0.1:" + lower.port();
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("lab", "agent", "agent:" + lowerAddress(), Map.of("timeoutMs", "2000"));
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.relayTargets(List.of(lowerAddress()));
    }

    @Override
    protected Set<String> requiredSensors() {
        return Set.of("lab.DUMMY_0", "lab.DUMMY_1", "lab.DUMMY_2");
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return Value.of(42.0);
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                new BadConfiguration(new ProtocolConfig("elsewhere", "agent", "agent:127.0.0.1:1", Map.of()),
                        "not an allowed relay target"),
                new BadConfiguration(new ProtocolConfig("slow", "agent", "agent:" + lowerAddress(),
                        Map.of("timeoutMs", "soon")), "timeoutMs"),
                new BadConfiguration(new ProtocolConfig("pigeon", "agent", "agent:" + lowerAddress(),
                        Map.of("transport", "pigeon")), "transport"),
                new BadConfiguration(new ProtocolConfig("secret", "agent", "agent:" + lowerAddress(),
                        Map.of("token", "let-me-in")), "token"));
    }

    /** The lower agent's threads (its workers, stream scheduler and server loops) are the fixture's. */
    @Override
    protected boolean fixtureThread(Thread thread) {
        String name = thread.getName();
        return name.startsWith("sal-worker-") || name.startsWith("sal-stream-") || name.startsWith("salgate-netty-io")
                || name.startsWith("salgate-netty-accept") || name.startsWith("salgate-session-limits");
    }
}
