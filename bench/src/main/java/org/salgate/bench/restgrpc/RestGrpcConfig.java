package org.salgate.bench.restgrpc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@code bench rest-grpc} runs.
 *
 * @param operations the operations measured, in order
 * @param reps timed repetitions of every operation on every API
 * @param duration the length of one timed repetition (back-to-back calls, one client)
 * @param warmup calls back to back on each operation and API before the first timed repetition
 * @param byteCalls calls per operation and API through the counting relay (after a few unmeasured ones)
 * @param dummySensors the dummy sensors of each agent (the OS sensors come besides)
 * @param commandLine the command as typed, for the report
 */
public record RestGrpcConfig(List<Operation> operations, int reps, Duration duration, Duration warmup, int byteCalls,
                             int dummySensors, Path out, boolean quick, String commandLine) {

    /** Calls made through the relay before its counters are read, so the connection is settled. */
    public static final int BYTE_WARMUP_CALLS = 10;

    public RestGrpcConfig {
        operations = List.copyOf(operations);
        Objects.requireNonNull(out, "out");
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("name at least one operation");
        }
        if (reps <= 0) {
            throw new IllegalArgumentException("--reps must be at least 1, got " + reps);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--duration must be positive, got " + duration);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, got " + warmup);
        }
        if (byteCalls <= 0) {
            throw new IllegalArgumentException("--byte-calls must be at least 1, got " + byteCalls);
        }
    }

    /** About how long the run takes, in seconds, without starting the two agents. */
    public double estimateSeconds() {
        return operations.size() * 2 * (reps * duration.toMillis() + warmup.toMillis()) / 1000.0;
    }
}
