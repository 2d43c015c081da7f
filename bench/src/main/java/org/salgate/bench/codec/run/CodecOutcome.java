package org.salgate.bench.codec.run;

import java.time.Instant;
import java.util.List;

/**
 * A finished codec bench run.
 *
 * @param config what was asked
 * @param workloads the workloads as built, with their details
 * @param results one per measured case, workload by workload
 * @param skipped the pairs left out because the codec has no format for that kind of workload
 * @param allocationSupported whether allocation per operation was measured
 * @param started when the run started
 * @param finished when it finished
 */
public record CodecOutcome(CodecRunConfig config, List<CodecWorkload> workloads, List<CaseResult> results,
        List<String> skipped, boolean allocationSupported, Instant started, Instant finished) {

    public CodecOutcome {
        workloads = List.copyOf(workloads);
        results = List.copyOf(results);
        skipped = List.copyOf(skipped);
    }

    public List<CaseResult> failures() {
        return results.stream().filter(r -> !r.ok()).toList();
    }

    /** The result of this pair, or null if it was not measured. */
    public CaseResult find(String codec, String workload) {
        for (CaseResult r : results) {
            if (r.codec().equals(codec) && r.workload().equals(workload)) {
                return r;
            }
        }
        return null;
    }
}
