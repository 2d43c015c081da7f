package org.salgate.bench.cli;

import java.util.List;
import java.util.Set;

import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.RunConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Agent level: the real agent with 28 sensors on each transport (paper Tables V-VIII). */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Benchmark the real agent (20 dummy + OS sensors): sensor list and dummy streaming (Tables V-VIII).")
final class AgentCommand extends RunCommand {

    @Option(names = "--methods", split = ",", paramLabel = "METHOD", defaultValue = "sync,async",
            description = "sync (sensor list), async (dummy streaming) (default: ${DEFAULT-VALUE}).")
    List<String> methodNames;

    @Mixin
    AgentRunOptions agentOptions = new AgentRunOptions();

    @Override
    void configureLevel(RunConfig.Builder b) {
        if (agentOptions.agentDuration != null) {
            b.agentDuration(agentOptions.agentDuration);
        }
        if (agentOptions.dummySensors != null) {
            if (agentOptions.dummySensors <= 0) {
                throw new IllegalArgumentException("--dummy-sensors must be at least 1, got " + agentOptions.dummySensors);
            }
            b.dummySensors(agentOptions.dummySensors);
        }
    }

    @Override
    Level level() {
        return Level.AGENT;
    }

    @Override
    List<String> defaultTransports() {
        return List.of("netty");
    }

    @Override
    Set<Method> methods() {
        return parseMethods(methodNames, Level.AGENT);
    }
}
