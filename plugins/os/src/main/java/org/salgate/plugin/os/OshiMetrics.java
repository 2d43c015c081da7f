package org.salgate.plugin.os;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;
import oshi.hardware.HardwareAbstractionLayer;
import oshi.hardware.Sensors;
import oshi.util.Memoizer;

/** {@link OsMetrics} read through OSHI, whose objects are made once and shared (they are thread-safe). */
final class OshiMetrics implements OsMetrics {

    private final GlobalMemory memory;
    private final CentralProcessor processor;
    private final Sensors sensors;

    OshiMetrics() {
        HardwareAbstractionLayer hardware = new SystemInfo().getHardware();
        this.memory = hardware.getMemory();
        this.processor = hardware.getProcessor();
        this.sensors = hardware.getSensors();
    }

    @Override
    public long availableMemory() {
        return memory.getAvailable();
    }

    @Override
    public long totalMemory() {
        return memory.getTotal();
    }

    @Override
    public long[] cpuTicks() {
        return processor.getSystemCpuLoadTicks();
    }

    @Override
    public double[] loadAverages() {
        return processor.getSystemLoadAverage(3);
    }

    @Override
    public double cpuTemperature() {
        return sensors.getCpuTemperature();
    }

    @Override
    public long maxAgeNanos() {
        // OSHI memoizes memory, CPU ticks and sensors for this long (oshi.util.memoizer.expiration).
        return Memoizer.defaultExpiration();
    }
}
