package org.salgate.plugin.os;

/**
 * The machine figures the OS sensors read, as the operating system reports them; unavailable
 * figures come back as the operating system's "none" value (0, NaN or negative), for the sensors
 * to judge. Implementations are thread-safe.
 */
interface OsMetrics {

    /** Memory available to new work, in bytes; 0 when unknown. */
    long availableMemory();

    /** Physical memory, in bytes; 0 when unknown. */
    long totalMemory();

    /** CPU time since boot per state, in ticks, indexed by {@link CpuState#index()}; all 0 when unknown. */
    long[] cpuTicks();

    /** Load averages over 1, 5 and 15 minutes; a negative entry when the machine has none. */
    double[] loadAverages();

    /** CPU temperature in degrees Celsius; 0 or NaN when the machine has no probe. */
    double cpuTemperature();

    /**
     * How old the memory, CPU and temperature figures may be when returned, in nanoseconds:
     * the source caches them this long. Negative when it never refreshes them.
     */
    long maxAgeNanos();
}
