package org.salgate.agent.testing;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/** A plugin whose constructor throws: loading it fails and must not stop the others. */
public final class UnloadablePlugin implements SensorPlugin {
    public UnloadablePlugin() {
        throw new IllegalStateException("cannot be constructed");
    }

    @Override
    public String type() {
        return "unloadable";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) {
        throw new UnsupportedOperationException();
    }
}
