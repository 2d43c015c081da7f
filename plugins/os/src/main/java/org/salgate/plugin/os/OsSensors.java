package org.salgate.plugin.os;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/** Builds the OS sensors a machine has, reading through one {@link OsMetrics}. */
final class OsSensors {

    static final String READ = "read";
    /** The shortest stream interval: a read costs a file read or a system call. */
    static final long MIN_INTERVAL_MS = 10;
    static final long MAX_INTERVAL_MS = 86_400_000L;

    private final String protocol;
    private final OsMetrics metrics;
    private final SamplingBounds loadBounds;
    /** Memory, CPU and temperature figures are cached by the source: streaming faster would repeat them. */
    private final SamplingBounds cachedBounds;
    private final FreshCache<double[]> loadAverages;

    OsSensors(String protocol, OsMetrics metrics) {
        this.protocol = protocol;
        this.metrics = metrics;
        this.loadBounds = new SamplingBounds(MIN_INTERVAL_MS, MAX_INTERVAL_MS);
        long maxAgeMs = TimeUnit.NANOSECONDS.toMillis(Math.max(0, metrics.maxAgeNanos()) + 999_999);
        this.cachedBounds = new SamplingBounds(Math.max(MIN_INTERVAL_MS, maxAgeMs), MAX_INTERVAL_MS);
        // The three load averages come from one call; readings of all three within the minimum interval share it.
        this.loadAverages = new FreshCache<>(metrics::loadAverages,
                TimeUnit.MILLISECONDS.toNanos(MIN_INTERVAL_MS), System::nanoTime);
    }

    /** The sensors of this machine: the eight SAL OS sensors, and the CPU temperature when it has a probe. */
    List<OsSensor> build() {
        List<OsSensor> sensors = new ArrayList<>();
        sensors.add(sensor(OsPlugin.FREE_MEMORY, "Memory available to new work, in bytes.", "freeMemory",
                "urn:salgate:def:property:freeMemory", "integer", "By", cachedBounds, this::freeMemory));
        sensors.add(cpu(OsPlugin.CPU_USER, CpuState.USER, "user", "cpuUser"));
        sensors.add(cpu(OsPlugin.CPU_NICE, CpuState.NICE, "niced user", "cpuNice"));
        sensors.add(cpu(OsPlugin.CPU_SYSTEM, CpuState.SYSTEM, "system (kernel)", "cpuSystem"));
        sensors.add(cpu(OsPlugin.CPU_IDLE, CpuState.IDLE, "idle", "cpuIdle"));
        sensors.add(load(OsPlugin.LOAD_AVG_1, 0, 1));
        sensors.add(load(OsPlugin.LOAD_AVG_5, 1, 5));
        sensors.add(load(OsPlugin.LOAD_AVG_15, 2, 15));
        if (Temperatures.isPresent(metrics.cpuTemperature())) {
            sensors.add(sensor(OsPlugin.CPU_TEMPERATURE, "CPU temperature, in degrees Celsius.", "cpuTemperature",
                    "urn:salgate:def:property:cpuTemperature", "decimal", "Cel", cachedBounds,
                    this::cpuTemperature));
        }
        return sensors;
    }

    private OsSensor cpu(String id, CpuState state, String words, String output) {
        CpuTimeShare share = new CpuTimeShare(state);
        return sensor(id, "Percentage of CPU time spent " + words + " since the previous read of this sensor"
                        + " (since boot for the first).", output, "urn:salgate:def:property:" + output,
                "decimal", "%", cachedBounds, () -> Value.of(share.update(metrics.cpuTicks())));
    }

    private OsSensor load(String id, int index, int minutes) {
        return sensor(id, "System load average over " + minutes + " minute" + (minutes == 1 ? "" : "s")
                        + ": runnable (and, on Linux, waiting) tasks.", "loadAverage" + minutes,
                "urn:salgate:def:property:loadAverage" + minutes + "min", "decimal", "1", loadBounds,
                () -> loadAverage(index, minutes));
    }

    private OsSensor sensor(String id, String description, String output, String definition, String responseType,
                            String unit, SamplingBounds bounds, OsSensor.Reader reader) {
        SensorDescription sensor = new SensorDescription(id, description, protocol, "",
                List.of(Output.quantity(output, definition, unit)), bounds);
        CommandDescription read = CommandDescription.builder(READ)
                .name("Read")
                .shortDescription(description)
                .response(responseType, unit)
                .streaming(bounds)
                .build();
        return new OsSensor(sensor, List.of(read), reader);
    }

    private Value freeMemory() throws SensorUnavailableException {
        long total = metrics.totalMemory();
        long available = metrics.availableMemory();
        if (total <= 0 || available < 0) {
            throw new SensorUnavailableException("This machine does not report its free memory.");
        }
        return Value.of(available);
    }

    private Value loadAverage(int index, int minutes) throws SensorUnavailableException {
        double[] averages = loadAverages.get();
        double value = index < averages.length ? averages[index] : -1;
        if (!(value >= 0)) {
            throw new SensorUnavailableException("This machine does not report a " + minutes
                    + "-minute load average.");
        }
        return Value.of(value);
    }

    private Value cpuTemperature() throws SensorUnavailableException {
        double celsius = metrics.cpuTemperature();
        if (!Temperatures.isPresent(celsius)) {
            throw new SensorUnavailableException("The CPU temperature cannot be read right now.");
        }
        return Value.of(celsius);
    }
}
