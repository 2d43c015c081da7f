package org.salgate.agent.device;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.agent.core.Micros;
import org.salgate.model.Reading;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The latest value of each channel a protocol's device pushes ({@link SensorProtocol#pushes}),
 * as the reading clients get: scaled, in its unit, with the device's time. The protocol is known
 * only once its plugin opened it, and a push before that is refused. Thread-safe.
 */
public final class PushedValues implements PushSink {

    private final ProtocolConfig config;
    private final Map<String, ChannelConfig> channels = new ConcurrentHashMap<>();
    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    private volatile SensorProtocol protocol;

    public PushedValues(ProtocolConfig config) {
        this.config = config;
        config.channels().forEach(c -> channels.put(c.name(), c));
    }

    /** The protocol is open: its pushes are taken from now on. */
    public void opened(SensorProtocol opened) {
        this.protocol = opened;
    }

    /** Whether the channel's value comes from pushes, not reads. */
    public boolean pushed(ChannelConfig channel) {
        SensorProtocol p = protocol;
        return p != null && p.pushes(channel);
    }

    @Override
    public void push(String channel, ChannelValue value) {
        ChannelConfig c = channels.get(channel);
        if (c == null || !pushed(c)) {
            throw new IllegalArgumentException("protocol " + config.name() + " has no pushed channel '" + channel
                    + "'" + (protocol == null ? " (it is not open yet)" : ""));
        }
        String sensorId = config.sensorId(c);
        latest.put(channel, Channels.reading(sensorId, c, value, Micros.now()));
    }

    /** The channel's latest pushed reading, or an UNAVAILABLE one before the first push. */
    public Reading latest(ChannelConfig channel) {
        Reading r = latest.get(channel.name());
        return r != null ? r : Reading.unavailable(config.sensorId(channel), Micros.now(), 0,
                "channel " + channel.name() + " of protocol " + config.name() + " has had no value pushed yet")
                .withUnit(channel.unit());
    }
}
