package org.salgate.bench.matrix;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one matrix run measures.
 *
 * @param transports transport names, in column order
 * @param codecs payload format names, in row order
 * @param persons echoes per measured repetition (the study: 1000)
 * @param warmupCalls echoes per format before its first measured repetition, on the same connection
 * @param reps measured repetitions per cell
 * @param seed the seed of {@code StudyData.persons}
 * @param out the report directory
 * @param commandLine the command line as typed, for the report
 */
public record MatrixConfig(List<String> transports, List<String> codecs, int persons, int warmupCalls, int reps,
                           long seed, Path out, String commandLine) {

    public MatrixConfig {
        transports = List.copyOf(transports);
        codecs = List.copyOf(codecs);
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(commandLine, "commandLine");
        if (transports.isEmpty() || codecs.isEmpty()) {
            throw new IllegalArgumentException("name at least one transport and one codec");
        }
        if (persons < 1) {
            throw new IllegalArgumentException("--persons must be at least 1, got " + persons);
        }
        if (warmupCalls < 0) {
            throw new IllegalArgumentException("--warmup-calls must be 0 or more, got " + warmupCalls);
        }
        if (reps < 1) {
            throw new IllegalArgumentException("--reps must be at least 1, got " + reps);
        }
    }

    /** Cells times repetitions: the number of measurements. */
    public int measurements() {
        return transports.size() * codecs.size() * reps;
    }
}
