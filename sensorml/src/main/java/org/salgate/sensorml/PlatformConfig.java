package org.salgate.sensorml;

import java.util.List;

/** A platform configuration (PCML): the protocols an agent runs. */
public record PlatformConfig(List<ProtocolConfig> protocols) {
    public PlatformConfig {
        protocols = List.copyOf(protocols);
    }
}
