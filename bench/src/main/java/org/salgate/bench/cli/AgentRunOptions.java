package org.salgate.bench.cli;

import java.time.Duration;

import picocli.CommandLine.Option;

/** The options only the agent level has. */
final class AgentRunOptions {

    @Option(names = "--agent-duration", paramLabel = "DURATION", description = "Agent-level cell length (default: 30s).")
    Duration agentDuration;

    @Option(names = "--dummy-sensors", paramLabel = "N",
            description = "Dummy sensors besides the OS sensors (default: 20, the paper's 28 in all).")
    Integer dummySensors;
}
