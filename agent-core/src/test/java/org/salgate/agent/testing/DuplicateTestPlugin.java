package org.salgate.agent.testing;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/** A second plugin of type {@code test}, registered after {@link TestPlugin}: the agent must refuse it. */
public final class DuplicateTestPlugin implements SensorPlugin {
    @Override
    public String type() {
        return "test";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        throw new PluginException("the duplicate plugin was used");
    }
}
