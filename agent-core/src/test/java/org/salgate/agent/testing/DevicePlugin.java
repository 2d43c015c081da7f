package org.salgate.agent.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.plugin.spi.EndpointType;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * Type {@code device}: a {@link FakeDevice} per protocol, on endpoints {@code tcp:HOST:PORT}
 * (default port 502) or {@code serial:/dev/...}. Tests prepare the device of a protocol name with
 * {@link #device} before opening it, and look at it afterwards.
 */
public final class DevicePlugin implements SensorPlugin {

    private static final Map<String, FakeDevice> DEVICES = new ConcurrentHashMap<>();

    /** The device a protocol of this name opens (or opened). */
    public static FakeDevice device(String protocolName) {
        return DEVICES.computeIfAbsent(protocolName, n -> new FakeDevice());
    }

    /** Forgets every device. */
    public static void reset() {
        DEVICES.clear();
    }

    @Override
    public String type() {
        return "device";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(EndpointType.network("tcp", 502), EndpointType.serial("serial"));
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        if (context.endpoint().target().isEmpty()) {
            throw new PluginException("a device needs a tcp or serial endpoint");
        }
        FakeDevice device = device(config.name());
        device.sink = context.push();
        return device;
    }

    /** A second driver on {@code tcp}, with the same syntax: the two share the type. */
    public static final class Sharing implements SensorPlugin {
        @Override
        public String type() {
            return "device2";
        }

        @Override
        public List<EndpointType> endpointTypes() {
            return List.of(EndpointType.network("tcp", 502));
        }

        @Override
        public SensorProtocol open(ProtocolConfig config, PluginContext context) {
            return device(config.name());
        }
    }

    /** A driver that brings {@code tcp} with another syntax: the agent refuses it. */
    public static final class Clashing implements SensorPlugin {
        @Override
        public String type() {
            return "clash";
        }

        @Override
        public List<EndpointType> endpointTypes() {
            return List.of(EndpointType.network("tcp6", 502),
                    new EndpointType("tcp", "tcp:URL", address -> {
                        throw new IllegalArgumentException("never");
                    }));
        }

        @Override
        public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
            throw new PluginException("the clashing plugin was used");
        }
    }
}
