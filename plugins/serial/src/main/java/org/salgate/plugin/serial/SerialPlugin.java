package org.salgate.plugin.serial;

import java.nio.file.Files;
import java.nio.file.Path;
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
 * Serial line instruments, type {@code serial}, on endpoints
 * {@code serial:/dev/ttyUSB0?baud=9600&data-bits=8&parity=none&stop-bits=1} (9600 8N1 by
 * default): the device writes one text line per reading and the protocol pushes the values of its
 * {@code <channel>}s from each line ({@link SerialProtocol}). A serial port that does not exist
 * when the protocol opens is refused.
 */
public final class SerialPlugin implements SensorPlugin {

    static final EndpointType SERIAL = EndpointType.serial("serial");

    @Override
    public String type() {
        return "serial";
    }

    @Override
    public String description() {
        return "serial line instruments: NMEA 0183 receivers and text lines split by a pattern or a delimiter";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(SERIAL);
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        try {
            if (!SERIAL.name().equals(endpoint.type())) {
                throw new IllegalArgumentException("a serial protocol's endpoint is " + SERIAL.syntax() + ", not '"
                        + endpoint.spec() + "'");
            }
            DeviceAddress target = endpoint.target().orElseGet(() -> SERIAL.parse(endpoint.address()));
            DeviceAddress.LocalPort port = (DeviceAddress.LocalPort) target;
            SerialSettings settings = SerialSettings.of(config, port.options());
            LineParser parser = settings.parser(config);
            if (!Files.exists(Path.of(port.path()))) {
                // refused now, not left to fail at every connect: a misspelt port reads as a device that is down
                throw new IllegalArgumentException("serial port " + port.path() + " does not exist on this machine;"
                        + " check its name (ls /dev/serial/by-id) and that the instrument is plugged in");
            }
            return new SerialProtocol(config, settings, port.path(), parser, context.push());
        } catch (IllegalArgumentException e) {
            throw new PluginException("serial protocol " + config.name() + ": " + e.getMessage(), e);
        }
    }
}
