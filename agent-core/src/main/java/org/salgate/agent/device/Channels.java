package org.salgate.agent.device;

import java.util.ArrayList;
import java.util.List;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;

/**
 * The channels of a device protocol as the agent serves them: each a sensor
 * {@code <protocol>.<channel>} with one output {@code value} in the channel's unit, a {@code read}
 * command when it is readable and a {@code write} command (argument {@code value}, within the
 * channel's min and max, admin only) when it is writable. The agent applies the channel's scale and
 * offset once, to numbers only: a driver sees raw values.
 */
public final class Channels {

    /** The command that reads a channel. */
    public static final String READ = "read";
    /** The command that writes a channel, which only an admin may execute. */
    public static final String WRITE = "write";
    /** The argument of {@link #WRITE}. */
    public static final String VALUE = "value";
    /** A channel is polled every millisecond at most (interval 0 would poll the device flat out). */
    static final SamplingBounds SAMPLING = new SamplingBounds(1, SamplingBounds.ANY.maxIntervalMs());

    private Channels() {}

    /** The sensor that serves {@code channel}. */
    public static SensorDescription description(ProtocolConfig protocol, ChannelConfig channel) {
        String what = channel.description().isEmpty()
                ? "channel " + channel.name() + " of device protocol " + protocol.name() : channel.description();
        Output value = Output.quantity(VALUE, "urn:salgate:def:property:channel:" + channel.name(), channel.unit());
        return new SensorDescription(protocol.sensorId(channel), what, protocol.name(), channel.name(),
                List.of(value), SAMPLING);
    }

    /** The commands of the sensor that serves {@code channel}. */
    public static List<CommandDescription> commands(ChannelConfig channel) {
        List<CommandDescription> out = new ArrayList<>();
        if (channel.access().readable()) {
            out.add(CommandDescription.builder(READ).shortDescription("reads the channel")
                    .response("decimal", channel.unit()).streaming(SAMPLING).build());
        }
        if (channel.access().writable()) {
            out.add(CommandDescription.builder(WRITE).shortDescription("sets the channel (admin only)")
                    .argument(new Argument(VALUE, Argument.Type.DECIMAL, channel.min(), channel.max(), null, false,
                            "the value to set" + (channel.unit().isEmpty() ? "" : ", in " + channel.unit())))
                    .response("decimal", channel.unit()).build());
        }
        return out;
    }

    /**
     * The reading of what a device gave for a channel, in the channel's unit and with the time the
     * device stamped on it if any: a number scaled, another value as it is when the channel has no
     * scale nor offset, an ERROR reading for a channel that failed or a value that cannot be scaled,
     * an UNAVAILABLE one for no value.
     *
     * @param nowMicros the time of the read, the reading's timestamp
     */
    public static Reading reading(String sensorId, ChannelConfig channel, ChannelValue given, long nowMicros) {
        return unstamped(sensorId, channel, given, nowMicros).withUnit(channel.unit())
                .withDeviceTime(given.deviceTimeMicros());
    }

    private static Reading unstamped(String sensorId, ChannelConfig channel, ChannelValue given, long time) {
        if (!given.ok()) {
            return Reading.error(sensorId, time, 0, "channel " + channel.name() + " could not be read: "
                    + given.error());
        }
        Value v = given.value();
        if (v instanceof Value.Absent) {
            return Reading.unavailable(sensorId, time, 0, "the device has no value for channel " + channel.name()
                    + " now");
        }
        if (v instanceof Value.Num n) {
            return Reading.ok(sensorId, time, 0, Value.of(channel.scaled(n.value())));
        }
        if (v instanceof Value.Int i) {
            // unscaled, a whole number stays whole: a 64-bit counter above 2^53 keeps every digit
            return Reading.ok(sensorId, time, 0, channel.scale() == 1 && channel.offset() == 0 ? i
                    : Value.of(channel.scaled(i.value())));
        }
        if (channel.scale() == 1 && channel.offset() == 0) {
            return Reading.ok(sensorId, time, 0, v);
        }
        return Reading.error(sensorId, time, 0, "channel " + channel.name() + " has a scale or an offset, but the "
                + "device gave " + v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + ", not a number");
    }

    /** The value a client wrote, as checked by the agent's argument checker. */
    public static double written(java.util.Map<String, String> arguments) {
        return Double.parseDouble(arguments.get(VALUE).trim());
    }

    /** The raw value to send the device for {@code scaled}. */
    public static Value raw(ChannelConfig channel, double scaled) {
        return Value.of(channel.raw(scaled));
    }
}
