package org.salgate.bench.devices;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.salgate.bench.run.Stat;

/**
 * A {@code bench devices} run: every cell's figures in every repetition.
 *
 * @param server what served the devices
 * @param measurements one per cell and repetition, in the order measured
 * @param problems the cells that could not be measured, and why
 * @param errorReadings the first few readings in error of each cell (their counts are among the figures)
 */
public record DevicesResult(DevicesConfig config, String server, List<Measurement> measurements,
                            List<String> problems, List<String> errorReadings, Instant started, Instant finished) {

    /** One cell in one repetition: its figures by name (see {@link DevicesReport} for what each means). */
    public record Measurement(String cell, int rep, Map<String, Double> metrics) {}

    /** The cells in the order first measured. */
    public List<String> cells() {
        return measurements.stream().map(Measurement::cell).distinct().toList();
    }

    /** A figure of a cell over the repetitions. */
    public Stat stat(String cell, String metric) {
        return Stat.of(measurements.stream().filter(m -> m.cell().equals(cell))
                .map(m -> m.metrics().getOrDefault(metric, Double.NaN)).toList());
    }
}
