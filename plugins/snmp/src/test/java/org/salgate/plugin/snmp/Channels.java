package org.salgate.plugin.snmp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ChannelConfig.Access;

/** Channel configurations for the tests, written as PCML attributes. */
final class Channels {

    private Channels() {
    }

    /** A read channel: {@code attributes} alternate names and values. */
    static ChannelConfig read(String name, String... attributes) {
        return channel(name, Access.READ, attributes);
    }

    static ChannelConfig channel(String name, Access access, String... attributes) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            a.put(attributes[i], attributes[i + 1]);
        }
        return new ChannelConfig(name, "", "", 1, 0, access, null, null, a);
    }

    /** One read of each channel, in order. */
    static List<ChannelRead> reads(List<ChannelConfig> channels) {
        return channels.stream().map(ChannelRead::new).toList();
    }
}
