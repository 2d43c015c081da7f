package org.salgate.sensorml;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One channel of a device protocol in a platform configuration (PCML {@code <channel>}): a value
 * the device holds, such as a Modbus register or an OPC UA node, served by the agent as a sensor
 * of its own (id {@code <protocol>.<channel>}).
 *
 * <p>The driver reads and writes the device's raw value; the agent applies {@code scale} and
 * {@code offset} once, to every number read ({@code raw * scale + offset}), and inverts them for
 * a write. Where the value sits on the device is said by the driver's {@code attributes} (for
 * Modbus: {@code table}, {@code address}, {@code type}...), which the driver checks.
 *
 * @param name the channel's name, unique in its protocol: letters, digits, {@code _} and {@code -}
 * @param description a human description, possibly empty
 * @param unit the UCUM code of the value's unit (such as {@code V}, {@code Cel}), possibly empty
 * @param scale multiplies every raw number read; not 0
 * @param offset added after the scale
 * @param access whether the channel is read, written, or both
 * @param min the smallest value a write may set (scaled, as clients see it), or null for none
 * @param max the largest value a write may set, or null for none
 * @param attributes where the value sits on the device, in the driver's terms
 */
public record ChannelConfig(String name, String description, String unit, double scale, double offset,
                            Access access, Double min, Double max, Map<String, String> attributes) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    /** Whether clients may read a channel, write it, or both. */
    public enum Access {
        READ("read"), WRITE("write"), READ_WRITE("read-write");

        private final String word;

        Access(String word) {
            this.word = word;
        }

        /** How PCML writes it: {@code read}, {@code write} or {@code read-write}. */
        public String word() {
            return word;
        }

        /** Whether a client may read the channel. */
        public boolean readable() {
            return this != WRITE;
        }

        /** Whether a client may write the channel. */
        public boolean writable() {
            return this != READ;
        }

        /**
         * The access PCML names {@code word}.
         *
         * @throws IllegalArgumentException for any other word
         */
        public static Access of(String word) {
            for (Access a : values()) {
                if (a.word.equals(word)) {
                    return a;
                }
            }
            throw new IllegalArgumentException("a channel's access is read, write or read-write, not '" + word + "'");
        }
    }

    public ChannelConfig {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("channel name '" + name + "' must be 1 to 64 letters, digits, '_' or"
                    + " '-', starting with a letter or digit");
        }
        description = description == null ? "" : description;
        unit = unit == null ? "" : unit;
        Objects.requireNonNull(access, "access");
        if (scale == 0 || !Double.isFinite(scale) || !Double.isFinite(offset)) {
            throw new IllegalArgumentException("channel " + name + ": scale must be a finite number other than 0"
                    + " and offset a finite number (scale " + scale + ", offset " + offset + ")");
        }
        if (min != null && max != null && min > max) {
            throw new IllegalArgumentException("channel " + name + ": min " + min + " is above max " + max);
        }
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** A channel read as the device gives it: no scale, no offset, no bounds. */
    public static ChannelConfig read(String name, String unit, Map<String, String> attributes) {
        return new ChannelConfig(name, "", unit, 1, 0, Access.READ, null, null, attributes);
    }

    /**
     * The number clients see for a raw number the device gave. Decimal arithmetic, so that a
     * register of 2301 at scale 0.1 reads 230.1, not binary floating point's 230.10000000000002.
     */
    public double scaled(double raw) {
        if (scale == 1 && offset == 0) {
            return raw;
        }
        return BigDecimal.valueOf(raw).multiply(BigDecimal.valueOf(scale)).add(BigDecimal.valueOf(offset))
                .doubleValue();
    }

    /** The raw number to send the device for a value a client wrote; decimal arithmetic, as {@link #scaled}. */
    public double raw(double scaled) {
        if (scale == 1 && offset == 0) {
            return scaled;
        }
        return BigDecimal.valueOf(scaled).subtract(BigDecimal.valueOf(offset))
                .divide(BigDecimal.valueOf(scale), MathContext.DECIMAL64).doubleValue();
    }
}
