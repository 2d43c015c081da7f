package org.salgate.plugin.spi;

import java.util.Objects;
import org.salgate.model.Value;

/**
 * What a device gave for one channel of a batch: its raw value (before the agent applies the
 * channel's scale and offset) and, when the device stamps its values, when it measured it; or why
 * this channel alone failed (a device's refusal of one address, say), the others of the batch
 * being read.
 *
 * @param value the raw value; {@link Value.Absent} when the device has no value for the channel
 *              now, or when {@code error} is set
 * @param deviceTimeMicros the device's timestamp in microseconds since the epoch, or 0 for none
 * @param error why the channel could not be read, or null when it was
 */
public record ChannelValue(Value value, long deviceTimeMicros, String error) {
    public ChannelValue {
        Objects.requireNonNull(value, "value");
    }

    /** A value with no device timestamp. */
    public static ChannelValue of(Value value) {
        return new ChannelValue(value, 0, null);
    }

    /** A channel the device would not give, and why. */
    public static ChannelValue failed(String error) {
        return new ChannelValue(new Value.Absent(), 0, Objects.requireNonNull(error, "error"));
    }

    /** Whether the channel was read. */
    public boolean ok() {
        return error == null;
    }
}
