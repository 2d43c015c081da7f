package org.salgate.plugin.os;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The {@code os} plugin: the machine's own figures as sensors, read through OSHI, as SAL's OS
 * protocol served them. It runs on the {@code os} endpoint and takes no parameters.
 *
 * <p>Sensors, each with one command {@code read}:
 * <table>
 *   <caption>OS sensors</caption>
 *   <tr><th>id</th><th>value</th><th>unit (UCUM)</th><th>min interval</th></tr>
 *   <tr><td>{@code FREE_MEMORY}</td><td>memory available to new work (integer)</td><td>{@code By}</td><td>*</td></tr>
 *   <tr><td>{@code CPU_USER}</td><td>% of CPU time in user mode</td><td>{@code %}</td><td>*</td></tr>
 *   <tr><td>{@code CPU_NICE}</td><td>% of CPU time in niced user mode</td><td>{@code %}</td><td>*</td></tr>
 *   <tr><td>{@code CPU_SYSTEM}</td><td>% of CPU time in the kernel</td><td>{@code %}</td><td>*</td></tr>
 *   <tr><td>{@code CPU_IDLE}</td><td>% of CPU time idle</td><td>{@code %}</td><td>*</td></tr>
 *   <tr><td>{@code LOAD_AVG_1}</td><td>1-minute load average</td><td>{@code 1}</td><td>10 ms</td></tr>
 *   <tr><td>{@code LOAD_AVG_5}</td><td>5-minute load average</td><td>{@code 1}</td><td>10 ms</td></tr>
 *   <tr><td>{@code LOAD_AVG_15}</td><td>15-minute load average</td><td>{@code 1}</td><td>10 ms</td></tr>
 *   <tr><td>{@code CPU_TEMPERATURE}</td><td>CPU temperature, only on machines with a probe</td><td>{@code Cel}</td>
 *       <td>*</td></tr>
 * </table>
 * The CPU percentages cover the time since the previous read of that same sensor (since boot for
 * its first read), from OSHI's tick counters. The total includes I/O wait, interrupts and steal
 * time, so the four shares add up to 100 % or a little less.
 *
 * <p>* OSHI caches memory, CPU counters and temperature for {@code oshi.util.memoizer.expiration}
 * (300 ms by default); these sensors take that as their minimum stream interval, so a stream never
 * repeats a cached figure as if new. The maximum interval is one day for all.
 *
 * <p>A figure the machine cannot give at read time (a negative load average, no CPU counters, a
 * temperature gone to 0) is reported as unavailable, never as 0. A temperature reading 0.0 or NaN
 * when the protocol opens means no probe, and then {@code CPU_TEMPERATURE} is not listed at all.
 */
public final class OsPlugin implements SensorPlugin {

    public static final String TYPE = "os";
    public static final String ENDPOINT_TYPE = "os";

    public static final String FREE_MEMORY = "FREE_MEMORY";
    public static final String CPU_USER = "CPU_USER";
    public static final String CPU_NICE = "CPU_NICE";
    public static final String CPU_SYSTEM = "CPU_SYSTEM";
    public static final String CPU_IDLE = "CPU_IDLE";
    public static final String LOAD_AVG_1 = "LOAD_AVG_1";
    public static final String LOAD_AVG_5 = "LOAD_AVG_5";
    public static final String LOAD_AVG_15 = "LOAD_AVG_15";
    public static final String CPU_TEMPERATURE = "CPU_TEMPERATURE";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "The machine's memory, CPU time, load averages and temperatures, read through OSHI";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        if (!ENDPOINT_TYPE.equals(context.endpoint().type())) {
            throw new PluginException("Protocol " + config.name() + " of type os needs the endpoint '" + ENDPOINT_TYPE
                    + "', not '" + context.endpoint().spec() + "'.");
        }
        try {
            return new OsProtocol(config.name(), new OshiMetrics());
        } catch (RuntimeException | LinkageError e) {
            throw new PluginException("Protocol " + config.name() + " cannot read this machine's figures through OSHI ("
                    + e + "); this operating system may not be supported.", e);
        }
    }
}
