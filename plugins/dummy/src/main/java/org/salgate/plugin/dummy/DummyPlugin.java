package org.salgate.plugin.dummy;

import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The {@code dummy} plugin, as SAL's dummy protocol: virtual sensors {@code DUMMY_0..DUMMY_{n-1}}
 * on the {@code virtual} endpoint, for tests and benchmarks.
 *
 * <p>Parameters: {@code sensors} (default 20, at most 100000) and {@code payloadBytes} (the
 * default size of a {@code payload} reading, default 64, at most 16 MiB). Each sensor has three
 * commands, all streamable at 0..86400000 ms:
 * <ul>
 *   <li>{@code read}: always the decimal 42.0, unit {@code 1} (dimensionless);</li>
 *   <li>{@code payload}: {@code size} bytes (optional INTEGER argument 0..16777216, default
 *       {@code payloadBytes}) of a fixed pattern, shared between readings; do not modify them;</li>
 *   <li>{@code ramp}: the decimal 0 at the sensor's first {@code ramp} read, one more at each next
 *       one (a known staircase, for tests of report by exception), unit {@code 1}.</li>
 * </ul>
 * Sensors can be added (from SensorML) and removed at run time.
 */
public final class DummyPlugin implements SensorPlugin {

    public static final String TYPE = "dummy";
    public static final String ENDPOINT_TYPE = "virtual";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "Virtual sensors with a constant reading and a byte payload, for tests and benchmarks";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        if (!ENDPOINT_TYPE.equals(endpoint.type())) {
            throw new PluginException("Protocol " + config.name() + " of type dummy needs the endpoint '"
                    + ENDPOINT_TYPE + "', not '" + endpoint.spec() + "'.");
        }
        return new DummyProtocol(config.name(), DummyParameters.of(config));
    }
}
