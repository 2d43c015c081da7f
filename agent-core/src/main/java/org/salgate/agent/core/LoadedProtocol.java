package org.salgate.agent.core;

import java.util.List;
import java.util.Objects;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
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
 */
public record LoadedProtocol(ProtocolConfig config, SensorPlugin plugin, Endpoint endpoint, SensorProtocol protocol,
                             List<SensorDescription> opened) {
    public LoadedProtocol {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(protocol, "protocol");
        opened = List.copyOf(opened);
    }

    /** The protocol's name, unique on the agent. */
    public String name() {
        return config.name();
    }
}
