package org.salgate.plugin.tck;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.salgate.sensorml.ProtocolConfig;

/** The suite fails plugins that break what it checks. */
class SuiteCatchesFaultsTest {

    /** The suite on a plugin of {@code type} that opens dummy sensors on the virtual endpoint. */
    private static class Suite extends AbstractPluginConformanceTest {
        private final String type;

        Suite(String type) {
            this.type = type;
        }

        @Override
        protected ProtocolConfig protocol() {
            return new ProtocolConfig("faulty", type, "virtual", Map.of());
        }

        @Override
        protected List<BadConfiguration> badConfigurations() {
            return List.of(new BadConfiguration(new ProtocolConfig("bad", type, "virtual", Map.of("sensors", "-1")),
                    "sensors"));
        }
    }

    @AfterEach
    void stopLeftThreads() {
        FaultyPlugins.Leaky.stopAll();
    }

    private static AssertionError fails(Suite suite, Executable test) {
        try {
            return assertThrows(AssertionError.class, test);
        } finally {
            suite.closeAgents();
        }
    }

    @Test
    void aPluginThatLeavesAThreadPerProtocolFailsTheClosingTestNamingTheThread() {
        Suite suite = new Suite("tck-leaky");
        AssertionError e = fails(suite, suite::closingTheAgentEndsEveryThreadThePluginStartedAndTheProtocolOpensAgain);
        assertTrue(e.getMessage().contains("tck-leaky-poller"), e.getMessage());
    }

    @Test
    void aPluginThatOpensABadConfigurationFailsTheBadConfigurationTest() {
        Suite suite = new Suite("tck-lax");
        AssertionError e = fails(suite,
                suite::eachBadConfigurationIsRefusedAtLoadWithAMessageNamingWhatIsWrongWhileTheOtherProtocolsServe);
        assertTrue(e.getMessage().contains("should have failed"), e.getMessage());
    }

    @Test
    void aPluginThatRefusesABadConfigurationWithAnUnexpectedExceptionFailsTheBadConfigurationTest() {
        Suite suite = new Suite("tck-brittle");
        AssertionError e = fails(suite,
                suite::eachBadConfigurationIsRefusedAtLoadWithAMessageNamingWhatIsWrongWhileTheOtherProtocolsServe);
        assertTrue(e.getMessage().contains("rather than a PluginException"), e.getMessage());
    }

    @Test
    void aPluginWithoutTheRequiredSensorsFailsTheServingTest() {
        Suite suite = new Suite("tck-lax") {
            @Override
            protected java.util.Set<String> requiredSensors() {
                return java.util.Set.of("THERMOMETER");
            }
        };
        AssertionError e = fails(suite, suite::thePluginLoadsByItsTypeAndServesEachSensorDescribedWithItsCommandsListed);
        assertTrue(e.getMessage().contains("THERMOMETER"), e.getMessage());
    }
}
