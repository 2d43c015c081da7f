package org.salgate.bench.workload;

import java.util.Map;
import java.util.Objects;

import org.salgate.bench.server.BenchProtocol;
import org.salgate.model.Call;

/**
 * A stream a workload asks for.
 *
 * @param name the data type as the report names it, such as {@code 80 KB}
 * @param sizeBytes bytes per message (the framework-free ceiling streams this size too); 0 when the server decides
 * @param agentSensors when positive, stream from the agent's dummy sensors DUMMY_0..n-1 (one per client, round robin)
 * @param agentCommand the dummy sensor's command to stream
 * @param intervalMs the agent's sampling interval, 0 for as fast as the client takes the readings
 * @param shared whether every client joins the agent's one shared stream of its sensor rather than its own
 */
public record StreamSpec(String name, int sizeBytes, int agentSensors, String agentCommand, long intervalMs,
                         boolean shared) {

    public StreamSpec {
        Objects.requireNonNull(name, "name");
        if (intervalMs < 0) {
            throw new IllegalArgumentException("the interval must be 0 or positive, got " + intervalMs + " ms");
        }
    }

    /** The transport-level service's stream of {@code kb}-kilobyte byte arrays. */
    public static StreamSpec kilobytes(int kb) {
        return new StreamSpec(kb + " KB", kb * 1024, 0, "", 0, false);
    }

    /** The agent's dummy sensors, streamed as fast as the client takes them (the paper's constant reading). */
    public static StreamSpec dummySensors(int sensors) {
        return new StreamSpec("dummy read", 0, sensors, "read", 0, false);
    }

    /** The agent's dummy sensors, one reading every {@code intervalMs} per client. */
    public static StreamSpec dummySensors(int sensors, long intervalMs) {
        return new StreamSpec("dummy read every " + intervalMs + " ms", 0, sensors, "read", intervalMs, false);
    }

    /** The agent's one shared stream of DUMMY_0, one reading every {@code intervalMs}, which every client joins. */
    public static StreamSpec sharedDummySensor(long intervalMs) {
        return new StreamSpec("shared dummy read every " + intervalMs + " ms", 0, 1, "read", intervalMs, true);
    }

    /** The set-up call for client number {@code clientIndex}. */
    public Call.SetupStream setup(int clientIndex) {
        if (agentSensors > 0) {
            return new Call.SetupStream("DUMMY_" + (clientIndex % agentSensors), agentCommand, Map.of(), intervalMs,
                    null, shared);
        }
        return BenchProtocol.setupStream(sizeBytes);
    }
}
