package org.salgate.bench.workload;

import java.util.Map;
import java.util.Objects;

import org.salgate.bench.server.BenchProtocol;
import org.salgate.wire.Call;

/**
 * A stream a workload asks for.
 *
 * @param name the data type as the report names it, such as {@code 80 KB}
 * @param sizeBytes bytes per message (the framework-free ceiling streams this size too); 0 when the server decides
 * @param agentSensors when positive, stream from the agent's dummy sensors DUMMY_0..n-1 (one per client, round robin)
 * @param agentCommand the dummy sensor's command to stream
 */
public record StreamSpec(String name, int sizeBytes, int agentSensors, String agentCommand) {

    public StreamSpec {
        Objects.requireNonNull(name, "name");
    }

    /** The transport-level service's stream of {@code kb}-kilobyte byte arrays. */
    public static StreamSpec kilobytes(int kb) {
        return new StreamSpec(kb + " KB", kb * 1024, 0, "");
    }

    /** The agent's dummy sensors, streamed as fast as the client takes them (the paper's constant reading). */
    public static StreamSpec dummySensors(int sensors) {
        return new StreamSpec("dummy read", 0, sensors, "read");
    }

    /** The set-up call for client number {@code clientIndex}. */
    public Call.SetupStream setup(int clientIndex) {
        if (agentSensors > 0) {
            return new Call.SetupStream("DUMMY_" + (clientIndex % agentSensors), agentCommand, Map.of(), 0);
        }
        return BenchProtocol.setupStream(sizeBytes);
    }
}
