package org.salgate.agent.device;

import java.util.List;
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

    static final int MAX_EARLY = 10_000;

    private final ProtocolConfig config;
    private final Map<String, ChannelConfig> channels = new ConcurrentHashMap<>();
    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    /** What the device pushed, while a discovery ran, for channels it had not listed yet. */
    private final Map<String, ChannelValue> early = new ConcurrentHashMap<>();
    private volatile SensorProtocol protocol;
    private volatile boolean discovering;

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

    /**
     * A discovery begins: until it ends, a push of a channel not known yet is kept (the latest of
     * each, at most {@value #MAX_EARLY} channels), since a device that pushes, such as an OPC UA
     * subscription, sends a channel's first value while it is being discovered.
     */
    void discovering() {
        discovering = true;
    }

    /**
     * The discovery ended: the channels it found are known from now on, with the value pushed for
     * them meanwhile; null when it failed.
     */
    void discovered(List<ChannelConfig> found) {
        if (found != null) {
            for (ChannelConfig listed : found) {
                channels.putIfAbsent(listed.name(), listed);
                ChannelConfig c = channels.get(listed.name());
                ChannelValue first = early.remove(listed.name());
                if (first != null && pushed(c)) {
                    latest.putIfAbsent(c.name(), Channels.reading(config.sensorId(c), c, first, Micros.now()));
                }
            }
        }
        discovering = false;
        early.clear();
    }

    /** A configured channel is served with what the device said of it (its unit), as {@code channel}. */
    void learned(ChannelConfig channel) {
        channels.replace(channel.name(), channel);
    }

    @Override
    public void push(String channel, ChannelValue value) {
        ChannelConfig c = channels.get(channel);
        if (c == null && discovering) {
            if (early.size() < MAX_EARLY || early.containsKey(channel)) {
                early.put(channel, value);
            }
            return;
        }
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
