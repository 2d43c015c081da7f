package org.salgate.plugin.onewire;

import java.util.List;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.EndpointType;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * 1-Wire devices through owserver, type {@code onewire}, on endpoints {@code tcp:HOST:PORT}
 * (port 4304 by default, owserver's): each {@code <channel>} is one property of one device
 * ({@link OnewireChannel}); the parameters are {@code timeout-ms}, {@code uncached},
 * {@code persistent} and {@code discover} ({@link OnewireSettings}), the last making a channel of
 * each device of a known family owserver lists ({@link OnewireFamily}).
 */
public final class OnewirePlugin implements SensorPlugin {

    static final EndpointType TCP = EndpointType.network("tcp", 4304);

    @Override
    public String type() {
        return "onewire";
    }

    @Override
    public String description() {
        return "1-Wire devices through owserver (OWFS)";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(TCP);
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        try {
            DeviceAddress target = endpoint.target().orElseGet(() -> {
                if (!TCP.name().equals(endpoint.type())) {
                    throw new IllegalArgumentException("a 1-Wire protocol's endpoint is " + TCP.syntax()
                            + " (owserver's address), not '" + endpoint.spec() + "'");
                }
                return TCP.parse(endpoint.address());
            });
            if (!(target instanceof DeviceAddress.Network n)) {
                throw new IllegalArgumentException("a 1-Wire protocol's endpoint is " + TCP.syntax()
                        + " (owserver's address), not '" + endpoint.spec() + "'");
            }
            OnewireSettings settings = OnewireSettings.of(config);
            return new OnewireProtocol(config, settings, endpoint.spec(),
                    () -> new Owserver(n.host(), n.port(), settings.timeoutMs(), settings.persistent()));
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        }
    }
}
