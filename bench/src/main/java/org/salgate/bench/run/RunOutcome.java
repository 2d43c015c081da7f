package org.salgate.bench.run;

import java.time.Instant;
import java.util.List;

/**
 * A finished (or re-loaded) run: its configuration, results, server samples, and notes on what
 * went wrong or was done besides measuring (warm-ups, restarts, skipped transports).
 */
public record RunOutcome(RunConfig config, ResultSet results, List<SampleRow> samples, List<String> notes,
                         Instant started, Instant finished) {

    public RunOutcome {
        samples = List.copyOf(samples);
        notes = List.copyOf(notes);
    }
}
