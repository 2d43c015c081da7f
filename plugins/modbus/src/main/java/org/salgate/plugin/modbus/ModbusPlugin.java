package org.salgate.plugin.modbus;

import com.ghgande.j2mod.modbus.Modbus;
import com.ghgande.j2mod.modbus.facade.ModbusSerialMaster;
import com.ghgande.j2mod.modbus.facade.ModbusTCPMaster;
import com.ghgande.j2mod.modbus.util.SerialParameters;
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
 * Modbus devices, type {@code modbus}: Modbus TCP on endpoints {@code tcp:HOST:PORT} (port 502 by
 * default) and Modbus RTU on serial lines, {@code serial:/dev/ttyUSB0?baud=9600&parity=even}. A
 * protocol's {@code <channel>}s say where each value sits ({@link ModbusChannel}); its parameters
 * are {@code unit-id}, {@code timeout-ms}, {@code max-registers}, {@code max-gap}, {@code retries}
 * and {@code min-interval-ms} ({@link ModbusSettings}). A serial port that does not exist when the
 * protocol opens is refused.
 */
public final class ModbusPlugin implements SensorPlugin {

    static final EndpointType TCP = EndpointType.network("tcp", 502);
    static final EndpointType SERIAL = EndpointType.serial("serial");

    @Override
    public String type() {
        return "modbus";
    }

    @Override
    public String description() {
        return "Modbus TCP and RTU devices";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(TCP, SERIAL);
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        try {
            DeviceAddress target = endpoint.target().orElseGet(() -> parse(endpoint));
            ModbusSettings settings = ModbusSettings.of(config);
            if (target instanceof DeviceAddress.Network n) {
                return new ModbusProtocol(config, settings, endpoint.spec(),
                        () -> new ModbusTCPMaster(n.host(), n.port(), settings.timeoutMs(), false), false);
            }
            DeviceAddress.LocalPort port = (DeviceAddress.LocalPort) target;
            ModbusSettings.Serial line = ModbusSettings.Serial.of(port.options());
            if (!Files.exists(Path.of(port.path()))) {
                // refused now, not left to fail at every connect: a misspelt port reads as a device that is down
                throw new IllegalArgumentException("serial port " + port.path() + " does not exist on this machine;"
                        + " check its name (ls /dev/serial/by-id) and that the adapter is plugged in");
            }
            return new ModbusProtocol(config, settings, endpoint.spec(), () -> {
                SerialParameters p = new SerialParameters();
                p.setPortName(port.path());
                p.setEncoding(Modbus.SERIAL_ENCODING_RTU);
                p.setBaudRate(line.baud());
                p.setDatabits(line.dataBits());
                p.setParity(line.parity());
                p.setStopbits(Integer.toString(line.stopBits()));
                return new ModbusSerialMaster(p, settings.timeoutMs());
            }, true);
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        }
    }

    /** The endpoint's address, when the agent did not parse it: a Modbus protocol needs a device. */
    private static DeviceAddress parse(Endpoint endpoint) {
        for (EndpointType type : List.of(TCP, SERIAL)) {
            if (type.name().equals(endpoint.type())) {
                return type.parse(endpoint.address());
            }
        }
        throw new IllegalArgumentException("a Modbus protocol's endpoint is " + TCP.syntax() + " or " + SERIAL.syntax()
                + ", not '" + endpoint.spec() + "'");
    }
}
