package org.salgate.bench.codec.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a codec bench run measures and where it writes.
 *
 * @param codecs codec names, in report order
 * @param workloads workload names, in report order
 * @param seed the seed of the generated workloads
 * @param harness warm-up and rounds
 * @param out the folder for codec.csv, codec.json and codec.md
 * @param commandLine the command line as the user gave it, for the report
 */
public record CodecRunConfig(List<String> codecs, List<String> workloads, long seed, HarnessConfig harness, Path out,
        String commandLine) {

    public CodecRunConfig {
        codecs = List.copyOf(codecs);
        workloads = List.copyOf(workloads);
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(out, "out");
        if (codecs.isEmpty() || workloads.isEmpty()) {
            throw new IllegalArgumentException("name at least one codec and one workload");
        }
    }
}
