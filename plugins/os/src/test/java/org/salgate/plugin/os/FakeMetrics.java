package org.salgate.plugin.os;

/** Figures set by a test. */
final class FakeMetrics implements OsMetrics {
    volatile long available = 4_000_000_000L;
    volatile long total = 8_000_000_000L;
    volatile long[] ticks = {100, 0, 50, 850, 0, 0, 0, 0};
    volatile double[] loads = {0.5, 0.25, 0.125};
    volatile double temperature = 0.0;
    volatile long maxAgeNanos = 300_000_000L;

    @Override
    public long availableMemory() {
        return available;
    }

    @Override
    public long totalMemory() {
        return total;
    }

    @Override
    public long[] cpuTicks() {
        return ticks.clone();
    }

    @Override
    public double[] loadAverages() {
        return loads.clone();
    }

    @Override
    public double cpuTemperature() {
        return temperature;
    }

    @Override
    public long maxAgeNanos() {
        return maxAgeNanos;
    }
}
