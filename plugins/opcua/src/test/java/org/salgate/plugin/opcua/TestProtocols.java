package org.salgate.plugin.opcua;

import java.util.Optional;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/** Opens an OPC UA protocol as the agent does, its endpoint the configured URL, its pushes to {@code sink}. */
final class TestProtocols {

    private TestProtocols() {
    }

    static SensorProtocol open(ProtocolConfig config, PushSink sink) throws Exception {
        String address = config.endpoint().substring("opc.tcp:".length());
        Endpoint endpoint = new Endpoint() {
            public String type() {
                return "opc.tcp";
            }

            public String address() {
                return address;
            }

            public Optional<DeviceAddress> target() {
                return Optional.of(OpcuaPlugin.OPC_TCP.parse(address));
            }
        };
        return new OpcuaPlugin().open(config, new PluginContext() {
            public Endpoint endpoint() {
                return endpoint;
            }

            public long nowMicros() {
                return System.currentTimeMillis() * 1000;
            }

            public PushSink push() {
                return sink;
            }
        });
    }
}
