package org.salgate.bench.devices;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.EndpointType;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The Modbus plugin without the agent: the protocol the agent would open for one device, opened
 * through the plugin SPI (found by {@link ServiceLoader}, as the agent finds it), its channels read
 * in one {@link SensorProtocol#read(List)} call. What the driver alone makes of a poll of K
 * channels, to set beside what the agent's lane hands it.
 */
final class DriverAlone implements AutoCloseable {

    private final SensorProtocol protocol;
    private final List<ChannelConfig> channels;

    DriverAlone(ProtocolConfig config) throws Exception {
        SensorPlugin plugin = ServiceLoader.load(SensorPlugin.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals(config.type())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + config.type() + " plugin on the class path"));
        int colon = config.endpoint().indexOf(':');
        String type = config.endpoint().substring(0, colon);
        String address = config.endpoint().substring(colon + 1);
        EndpointType endpointType = plugin.endpointTypes().stream().filter(t -> t.name().equals(type)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the plugin has no endpoint type " + type));
        DeviceAddress target = endpointType.parse(address);
        Endpoint endpoint = new Endpoint() {
            @Override
            public String type() {
                return type;
            }

            @Override
            public String address() {
                return address;
            }

            @Override
            public Optional<DeviceAddress> target() {
                return Optional.of(target);
            }
        };
        protocol = plugin.open(config, new PluginContext() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
            }

            @Override
            public long nowMicros() {
                return System.currentTimeMillis() * 1000;
            }
        });
        channels = config.channels();
        protocol.connect();
    }

    /** Reads the first {@code k} channels in one call: how many values came back without a failure. */
    int read(int k) throws Exception {
        List<ChannelRead> reads = new ArrayList<>(k);
        for (ChannelConfig c : channels.subList(0, k)) {
            reads.add(new ChannelRead(c));
        }
        int ok = 0;
        for (ChannelValue v : protocol.read(reads)) {
            if (v != null && v.ok()) {
                ok++;
            }
        }
        return ok;
    }

    @Override
    public void close() {
        protocol.close();
    }
}
