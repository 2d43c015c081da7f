package org.salgate.plugin.spi;

/**
 * Where a driver delivers the values its device reports by itself (an OPC UA monitored item, an
 * SNMP trap, a device that sends a line whenever it measures), for the channels it
 * {@linkplain SensorProtocol#pushes pushes}. The agent keeps each pushed channel's latest value:
 * a read of the channel, and every tick of its streams, give that value without asking the device,
 * through the same streams, bounds and slow-consumer policies as polled channels. Thread-safe; a
 * driver may push from any thread.
 */
public interface PushSink {

    /**
     * The device reported a channel's raw value (the agent applies the channel's scale and
     * offset), or, with {@link ChannelValue#failed}, that it could not give it.
     *
     * @param channel the channel's name, one the protocol pushes
     * @throws IllegalArgumentException when the protocol has no such channel, or does not push it
     */
    void push(String channel, ChannelValue value);
}
