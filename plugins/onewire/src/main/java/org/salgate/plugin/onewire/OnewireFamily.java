package org.salgate.plugin.onewire;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.salgate.sensorml.ChannelConfig;

/**
 * A 1-Wire family that discovery turns into a channel: the property a device of the family is read
 * by and its unit. Temperature probes (DS18S20 {@code 10}, DS1822 {@code 22}, DS18B20 {@code 28},
 * DS1825 {@code 3B}, DS28EA00 {@code 42}) read {@code temperature} in {@code Cel}, owserver's
 * default scale; the DS2438 ({@code 26}) reads {@code humidity} in {@code %}; the DS2423
 * ({@code 1D}) reads its counter {@code counter.A}, a pure number ({@code 1}).
 *
 * @param chip the chip's name, for the channel's description
 * @param property the property read, the last segment of the channel's path
 * @param unit the channel's UCUM unit
 * @param quantity what the property measures, for the description
 */
record OnewireFamily(String chip, String property, String unit, String quantity) {

    /** A device's id as owserver lists it: family, a dot, the 12 hexadecimal digits of its serial number. */
    private static final Pattern DEVICE_ID = Pattern.compile("[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]{12}");

    private static final Map<String, OnewireFamily> KNOWN = Map.of(
            "10", new OnewireFamily("DS18S20", "temperature", "Cel", "temperature"),
            "22", new OnewireFamily("DS1822", "temperature", "Cel", "temperature"),
            "28", new OnewireFamily("DS18B20", "temperature", "Cel", "temperature"),
            "3B", new OnewireFamily("DS1825", "temperature", "Cel", "temperature"),
            "42", new OnewireFamily("DS28EA00", "temperature", "Cel", "temperature"),
            "26", new OnewireFamily("DS2438", "humidity", "%", "relative humidity"),
            "1D", new OnewireFamily("DS2423", "counter.A", "1", "count of counter A"));

    /**
     * The channel of the device at {@code devicePath} ({@code /28.4AEC29CDBAAB}, or under a bus,
     * {@code /bus.0/28.4AEC29CDBAAB}) when its family is known: named from its id made a legal
     * channel name ({@code 28-4AEC29CDBAAB}), its path the device's property; empty for another
     * entry (owserver's own directories, a family discovery does not know, a path a channel could
     * not name, which only a broken owserver lists).
     */
    static Optional<ChannelConfig> channel(String devicePath) {
        String path = devicePath.endsWith("/") ? devicePath.substring(0, devicePath.length() - 1) : devicePath;
        String id = path.substring(path.lastIndexOf('/') + 1);
        if (!DEVICE_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        OnewireFamily f = KNOWN.get(id.substring(0, 2).toUpperCase(Locale.ROOT));
        if (f == null) {
            return Optional.empty();
        }
        ChannelConfig c = new ChannelConfig(id.replace('.', '-'),
                f.quantity + " of 1-Wire device " + id + " (" + f.chip + ")", f.unit, 1, 0, ChannelConfig.Access.READ,
                null, null, Map.of("path", path + "/" + f.property));
        try {
            OnewireChannel.of(c, false);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(c);
    }
}
