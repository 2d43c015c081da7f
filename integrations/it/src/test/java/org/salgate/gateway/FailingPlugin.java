package org.salgate.gateway;

import java.util.List;
import java.util.Map;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/** Type {@code failing}: one sensor, {@code BROKEN_0}, whose reads always fail. */
public final class FailingPlugin implements SensorPlugin {

    @Override
    public String type() {
        return "failing";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) {
        return new SensorProtocol() {
            @Override
            public List<SensorDescription> sensors() {
                return List.of(new SensorDescription("BROKEN_0", "a sensor whose reads fail", config.name(), "",
                        List.of(Output.quantity("value", "http://example.org/value", "1")), SamplingBounds.ANY));
            }

            @Override
            public List<CommandDescription> commands(String sensorId) {
                return List.of(CommandDescription.builder("read").response("decimal", "1")
                        .streaming(SamplingBounds.ANY).build());
            }

            @Override
            public Value execute(String sensorId, String commandId, Map<String, String> arguments)
                    throws PluginException {
                throw new PluginException("the device did not answer");
            }

            @Override
            public void close() {}
        };
    }
}
