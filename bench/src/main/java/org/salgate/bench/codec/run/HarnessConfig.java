package org.salgate.bench.codec.run;

import java.time.Duration;

/**
 * How long the harness warms up and measures each case.
 *
 * @param warmup encode and decode alternately for this long before measuring
 * @param measure the length of one measuring round (of encode, then of decode)
 * @param rounds how many rounds; the report gives their median, min and max
 */
public record HarnessConfig(Duration warmup, Duration measure, int rounds) {

    public HarnessConfig {
        if (warmup.isNegative() || measure.isZero() || measure.isNegative()) {
            throw new IllegalArgumentException("--warmup must be >= 0 and --measure > 0");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
        }
    }

    /** The full run: 2 s warm-up, 5 rounds of 1 s. */
    public static HarnessConfig defaults() {
        return new HarnessConfig(Duration.ofSeconds(2), Duration.ofSeconds(1), 5);
    }

    /** The smoke test: 200 ms warm-up, 3 rounds of 100 ms. */
    public static HarnessConfig quick() {
        return new HarnessConfig(Duration.ofMillis(200), Duration.ofMillis(100), 3);
    }

    /** About how long one case takes: the warm-up and the encode and decode rounds. */
    public double caseSeconds() {
        return (warmup.toNanos() + 2L * rounds * measure.toNanos()) / 1e9;
    }
}
