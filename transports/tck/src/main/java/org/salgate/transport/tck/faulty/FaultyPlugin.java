package org.salgate.transport.tck.faulty;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * A plugin whose sensors fail on purpose, for the agent-level suite: type {@value #TYPE},
 * parameters {@code prefix} (default {@code FAULTY_}) and {@code sensors} (default 2). See
 * {@link FaultyProtocol} for its commands.
 */
public final class FaultyPlugin implements SensorPlugin {

    public static final String TYPE = "faulty";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "sensors that fail on purpose (conformance tests)";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) {
        return new FaultyProtocol(config.name(), config.parameter("prefix", "FAULTY_"),
                Integer.parseInt(config.parameter("sensors", "2")));
    }
}
