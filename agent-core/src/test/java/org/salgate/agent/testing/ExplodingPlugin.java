package org.salgate.agent.testing;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/** Type {@code exploding}: open throws an unexpected exception. */
public final class ExplodingPlugin implements SensorPlugin {
    @Override
    public String type() {
        return "exploding";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) {
        throw new IllegalStateException("exploded while opening");
    }
}
