package org.salgate.bench.run;

/**
 * A cell to run: its key, repetition, and a time estimate for the progress line.
 *
 * @param estimateSeconds a rough guess of its wall time, for the remaining-time estimate only
 */
public record PlannedCell(CellKey key, int rep, double estimateSeconds) {}
