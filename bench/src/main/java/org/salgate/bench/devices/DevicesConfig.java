package org.salgate.bench.devices;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@code bench devices} runs.
 *
 * @param server the devices' server: {@code jvm} (j2mod in the bench's JVM) or {@code pymodbus}
 * @param reps repetitions of every cell; medians and min-max over them
 * @param pollDuration how long the agent, then the ceiling client, read back to back in each repetition
 * @param batchSizes registers read in one poll of one device (batch cells)
 * @param polls polls per batch cell and repetition
 * @param deviceCounts devices streamed together (stream cells)
 * @param registers registers per device in the stream cells
 * @param intervalMs each stream's interval
 * @param warmup how long the streams run before a stream cell's window opens
 * @param duration a stream cell's measured window
 * @param clients client connections the streams of a stream cell are spread over (at most one per device)
 * @param latencyChanges register changes timed per repetition (latency cell)
 * @param commandLine the command as typed, for the report
 * @param rows the rows measured besides Modbus's: {@code onewire} ({@link OnewireRow}), {@code serial}
 *             ({@link SerialRow}), {@code snmp} ({@link SnmpRow}: Debian's snmpd, 100 OIDs in one batch)
 */
public record DevicesConfig(String server, int reps, Duration pollDuration, List<Integer> batchSizes, int polls,
                            List<Integer> deviceCounts, int registers, long intervalMs, Duration warmup,
                            Duration duration, int clients, int latencyChanges, boolean quick, Path out,
                            String commandLine, List<String> rows) {

    /** The rows {@code --rows} may name. */
    public static final List<String> ROWS = List.of("onewire", "serial", "snmp");

    /** The most registers one Modbus read request asks for (the protocol's limit, and the driver's default). */
    public static final int MAX_REGISTERS_PER_REQUEST = 125;

    public DevicesConfig {
        Objects.requireNonNull(out, "out");
        batchSizes = List.copyOf(batchSizes);
        deviceCounts = List.copyOf(deviceCounts);
        rows = List.copyOf(rows);
        if (!ROWS.containsAll(rows)) {
            throw new IllegalArgumentException("--rows names onewire, serial, snmp or none, not " + rows);
        }
        if (!server.equals("jvm") && !server.equals("pymodbus")) {
            throw new IllegalArgumentException("--server is jvm or pymodbus, not '" + server + "'");
        }
        if (reps <= 0 || polls <= 0 || registers <= 0 || intervalMs <= 0 || clients <= 0 || latencyChanges <= 0) {
            throw new IllegalArgumentException("--reps, --polls, --registers, --interval-ms, --clients and"
                    + " --latency-changes must be positive");
        }
        if (batchSizes.isEmpty() || batchSizes.stream().anyMatch(n -> n <= 0 || n > MAX_REGISTERS_PER_REQUEST)) {
            throw new IllegalArgumentException("--batch sizes are 1 to " + MAX_REGISTERS_PER_REQUEST + ", got "
                    + batchSizes);
        }
        if (deviceCounts.isEmpty() || deviceCounts.stream().anyMatch(n -> n <= 0)) {
            throw new IllegalArgumentException("--devices counts must be positive, got " + deviceCounts);
        }
        for (Duration d : List.of(pollDuration, duration)) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("durations must be positive, got " + d);
            }
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, got " + warmup);
        }
    }

    /** Registers of device 0, which the poll, batch and latency cells read. */
    int firstDeviceRegisters() {
        return Math.max(Math.max(registers, 1), batchSizes.stream().mapToInt(Integer::intValue).max().orElse(1));
    }

    /** The largest number of devices any cell needs. */
    int maxDevices() {
        return deviceCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** About how long the run takes, in seconds, besides starting agents and servers. */
    public double estimateSeconds() {
        double perRep = 2 * pollDuration.toMillis() / 1000.0
                + batchSizes.size() * polls * 0.005
                + (deviceCounts.size() + batchSizes.stream().filter(k -> k > 1).count())
                        * (warmup.toMillis() + duration.toMillis()) / 1000.0
                + latencyChanges * 1.5 * intervalMs / 1000.0
                // the 1-Wire row's two sides; the serial row's two cells of two sides, each after a moment to drain
                + (rows.contains("onewire") ? 2.2 * pollDuration.toMillis() / 1000.0 : 0)
                + (rows.contains("serial") ? 4 * (pollDuration.toMillis() / 1000.0 + 0.2) : 0);
        return reps * perRep;
    }
}
