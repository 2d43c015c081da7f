package org.salgate.plugin.spi;

import java.util.Objects;
import org.salgate.sensorml.ChannelConfig;

/**
 * One channel to read in a batch ({@link SensorProtocol#read(java.util.List)}).
 *
 * @param channel the channel as configured, whose attributes say where the value sits
 */
public record ChannelRead(ChannelConfig channel) {
    public ChannelRead {
        Objects.requireNonNull(channel, "channel");
    }
}
