package org.salgate.plugin.snmp;

import java.net.InetAddress;
import java.net.UnknownHostException;
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
 * SNMP agents (devices), type {@code snmp}, on endpoints {@code udp:HOST:PORT} (port 161 by
 * default), allowed by {@code --device-allow HOST:PORT} like any device. A protocol's
 * {@code <channel>}s are OIDs ({@link SnmpChannel}); its parameters are {@code version} (2c or 3),
 * {@code community-file} (v2c), {@code user}, {@code auth-password-file} (SHA) and
 * {@code priv-password-file} (AES-128) for v3, {@code timeout-ms}, {@code retries},
 * {@code max-oids-per-request}, {@code trap-port}, {@code trap-address} and {@code trap-insecure}
 * ({@link SnmpSettings}), and {@code walk}, {@code walk-columns}, {@code walk-name} and
 * {@code walk-max-rows} for a table whose rows become channels ({@link SnmpWalk}).
 */
public final class SnmpPlugin implements SensorPlugin {

    static final EndpointType UDP = EndpointType.network("udp", 161);

    @Override
    public String type() {
        return "snmp";
    }

    @Override
    public String description() {
        return "SNMP v2c and v3 devices: GET of OIDs, table walks (GETBULK), traps and informs";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(UDP);
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        try {
            if (!UDP.name().equals(endpoint.type())) {
                throw new IllegalArgumentException("an SNMP protocol's endpoint is " + UDP.syntax() + ", not '"
                        + endpoint.spec() + "'");
            }
            DeviceAddress.Network target = (DeviceAddress.Network) endpoint.target()
                    .orElseGet(() -> UDP.parse(endpoint.address()));
            SnmpSettings settings = SnmpSettings.of(config);
            InetAddress host;
            try {
                host = InetAddress.getByName(target.host());
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("SNMP protocol " + config.name() + ": host " + target.host()
                        + " of endpoint " + endpoint.spec() + " is unknown; check its name or give its address", e);
            }
            return new SnmpProtocol(config, settings, endpoint.spec(), host, target.port(), context.push());
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        }
    }
}
