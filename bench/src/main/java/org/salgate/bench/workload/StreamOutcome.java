package org.salgate.bench.workload;

/**
 * What a streaming workload received over all its clients in the measured window.
 *
 * @param messages messages received
 * @param bytes payload bytes received
 * @param lost sequence numbers never received
 * @param duplicated messages received twice
 * @param reordered messages received after a later one
 * @param elapsedNanos the measured window
 * @param errors clients whose stream failed to start or stop
 * @param firstError the first failure's message, or null
 */
public record StreamOutcome(long messages, long bytes, long lost, long duplicated, long reordered,
                            long elapsedNanos, long errors, String firstError) {

    public double messagesPerSecond() {
        return elapsedNanos > 0 ? messages * 1e9 / elapsedNanos : 0;
    }

    /** Megabytes (10^6 B) of payload per second. */
    public double megabytesPerSecond() {
        return elapsedNanos > 0 ? bytes * 1e3 / elapsedNanos : 0;
    }
}
