package org.salgate.plugin.opcua;

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
 * OPC UA servers, type {@code opcua}, on endpoints {@code opc.tcp://HOST:PORT/PATH} (port 4840 by
 * default): a protocol's {@code <channel>}s name variable nodes ({@link OpcuaChannel}); its
 * parameters choose the security and the identity ({@link OpcuaSettings}).
 */
public final class OpcuaPlugin implements SensorPlugin {

    /** OPC UA's binary protocol over TCP; the agent checks HOST:PORT against {@code --device-allow}. */
    static final EndpointType OPC_TCP = new EndpointType("opc.tcp", "opc.tcp://HOST:PORT/PATH",
            OpcuaPlugin::parseAddress);

    private static final EndpointType AUTHORITY = EndpointType.network("opc.tcp", 4840);

    @Override
    public String type() {
        return "opcua";
    }

    @Override
    public String description() {
        return "OPC UA servers: variables read, written and monitored";
    }

    @Override
    public List<EndpointType> endpointTypes() {
        return List.of(OPC_TCP);
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        Endpoint endpoint = context.endpoint();
        try {
            if (!OPC_TCP.name().equals(endpoint.type())) {
                throw new IllegalArgumentException("an OPC UA protocol's endpoint is " + OPC_TCP.syntax() + ", not '"
                        + endpoint.spec() + "'");
            }
            DeviceAddress.Network server = (DeviceAddress.Network) endpoint.target()
                    .orElseGet(() -> OPC_TCP.parse(endpoint.address()));
            OpcuaSettings settings = OpcuaSettings.of(config);
            return new OpcuaProtocol(config, settings, server, "opc.tcp:" + endpoint.address().strip(),
                    context.push());
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        }
    }

    /** {@code //HOST:PORT/PATH}, the part of {@code opc.tcp://HOST:PORT/PATH} after the scheme. */
    private static DeviceAddress parseAddress(String address) {
        String a = address.strip();
        if (!a.startsWith("//") || a.length() == 2) {
            throw new IllegalArgumentException("'opc.tcp:" + address + "' is not an OPC UA endpoint URL; write "
                    + OPC_TCP.syntax() + ", such as opc.tcp://192.0.2.10:4840/");
        }
        String rest = a.substring(2);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        try {
            return AUTHORITY.parse(authority);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'opc.tcp:" + address + "': " + e.getMessage().replace(
                    AUTHORITY.syntax(), OPC_TCP.syntax()), e);
        }
    }
}
