package org.salgate.agent.core;

import java.util.List;
import java.util.Objects;
import org.salgate.agent.device.DeviceLane;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;

/**
 * A running protocol: its PCML entry, the plugin that opened it, its endpoint, the open protocol
 * instance and the sensors it opened with.
 *
 * @param config the PCML entry the plugin opened it from (without the sensors changed at run time,
 *               see {@link SensorChanges})
 * @param plugin the plugin that opened it
 * @param endpoint the endpoint it is bound to
 * @param protocol the open instance
 * @param opened the sensors the plugin served right after opening it, as the agent registers them
 *               (with the sensors of its channels)
 * @param lane the lane every request to its device goes through, or null when the agent calls the
 *             protocol from any thread (no device target)
 */
public record LoadedProtocol(ProtocolConfig config, SensorPlugin plugin, Endpoint endpoint, SensorProtocol protocol,
                             List<SensorDescription> opened, DeviceLane lane) {
    public LoadedProtocol {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(protocol, "protocol");
        opened = List.copyOf(opened);
    }

    /** The channel a sensor of this protocol serves, or null when it is none. */
    public ChannelConfig channel(String sensorId) {
        for (ChannelConfig c : config.channels()) {
            if (config.sensorId(c).equals(sensorId)) {
                return c;
            }
        }
        return null;
    }

    /** The protocol's name, unique on the agent. */
    public String name() {
        return config.name();
    }
}
