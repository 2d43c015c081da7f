package org.salgate.agent.core;

import java.util.Objects;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * A running protocol: its PCML entry, the plugin that opened it, its endpoint and the open
 * protocol instance.
 *
 * @param config the PCML entry it was opened from
 * @param plugin the plugin that opened it
 * @param endpoint the endpoint it is bound to
 * @param protocol the open instance
 */
public record LoadedProtocol(ProtocolConfig config, SensorPlugin plugin, Endpoint endpoint, SensorProtocol protocol) {
    public LoadedProtocol {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** The protocol's name, unique on the agent. */
    public String name() {
        return config.name();
    }
}
