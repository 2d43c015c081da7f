package org.salgate.plugin.onewire;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.salgate.model.Value;
import org.salgate.sensorml.ChannelConfig;

/**
 * One channel of a 1-Wire protocol: one property of one device as owserver names it, attribute
 * {@code path} ({@code /28.000028D70000/temperature}, {@code /26.F2FBE3467CC2/humidity},
 * {@code /1D.54F81BE8E78D/counter.A}), read from owserver's cache unless attribute
 * {@code uncached} (or the protocol's parameter of that name) is true.
 *
 * <p>A channel's values keep one kind from read to read, so that a time series never changes
 * type: owserver prints a decimal property with {@code %G}, so a temperature of exactly 25 comes
 * as {@code 25}, and a family code is hexadecimal ({@code 28}, {@code 1D}). The kind is the
 * channel's attribute {@code type}, else the property's as owfs defines it ({@link Kind#of}).
 *
 * @param path the property's path, without {@code /uncached}
 * @param device the path's device part ({@code /28.000028D70000}), for messages and presence
 * @param requestPath what is asked of owserver: the path, under {@code /uncached} when uncached
 */
record OnewireChannel(String name, String path, String device, String requestPath, Kind kind) {

    static final Set<String> ATTRIBUTES = Set.of("path", "uncached", "type");

    /** What a property's text is read as. */
    enum Kind {
        /** A decimal number, whatever owserver printed: temperatures, humidity, voltages. */
        DECIMAL,
        /** A whole number: counters. */
        WHOLE,
        /** Text as owserver gives it: family, type, id, address. */
        TEXT,
        /** A property owfs does not fix here: a whole number, else a decimal, else text, by its text. */
        INFERRED;

        /** owfs's text properties, which may look like numbers (family {@code 28}, crc8 {@code 7F}). */
        private static final Set<String> TEXT_PROPERTIES = Set.of("family", "type", "id", "r_id", "address",
                "r_address", "crc8", "locator", "r_locator", "version");
        /** owfs's floating-point properties, by the start of their names (temperature12, VAD, vis_gradient). */
        private static final Pattern DECIMAL_PROPERTIES = Pattern.compile(
                "(temperature|fasttemp|temphigh|templow|humidity|vad|vdd|vis|volt|pressure|current)[0-9a-z_.]*");
        private static final Pattern COUNTER_PROPERTIES = Pattern.compile("counters?(\\.[a-z0-9]+)?");
        private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");

        /** The kind owfs gives the path's last segment. */
        static Kind of(String path) {
            String property = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
            if (TEXT_PROPERTIES.contains(property)) {
                return TEXT;
            }
            if (DECIMAL_PROPERTIES.matcher(property).matches()) {
                return DECIMAL;
            }
            return COUNTER_PROPERTIES.matcher(property).matches() ? WHOLE : INFERRED;
        }

        /** A value's text as owserver sends it (padded with spaces), read as this kind. */
        Value value(byte[] data) {
            String text = new String(data, StandardCharsets.UTF_8).strip();
            try {
                return switch (this) {
                    case TEXT -> Value.of(text);
                    case DECIMAL -> Value.of(Double.parseDouble(text));
                    case WHOLE -> Value.of(Long.parseLong(text));
                    case INFERRED -> INTEGER.matcher(text).matches() ? Value.of(Long.parseLong(text))
                            : inferredDecimal(text);
                };
            } catch (NumberFormatException e) {
                throw new NumberFormatException("'" + text + "' is not a " + name().toLowerCase(Locale.ROOT)
                        + " number");
            }
        }

        private static Value inferredDecimal(String text) {
            try {
                return Value.of(Double.parseDouble(text));
            } catch (NumberFormatException e) {
                return Value.of(text);
            }
        }
    }
    /** Segments of letters, digits, dot, dash and underscore; at least a device and a property. */
    private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9_.-]+){2,8}");

    /** @throws IllegalArgumentException naming what is wrong */
    static OnewireChannel of(ChannelConfig c, boolean uncachedByDefault) {
        for (String a : c.attributes().keySet()) {
            if (!ATTRIBUTES.contains(a)) {
                throw new IllegalArgumentException("1-Wire channel " + c.name() + ": unknown attribute '" + a
                        + "'; a 1-Wire channel has path, uncached and type");
            }
        }
        String path = c.attributes().get("path");
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("1-Wire channel " + c.name()
                    + ": attribute path is missing; give the device's property, such as /28.000028D70000/temperature"
                    + " (owdir lists the devices)");
        }
        if (path.length() > 255 || !PATH.matcher(path).matches() || path.contains("/../") || path.contains("/./")) {
            throw new IllegalArgumentException("1-Wire channel " + c.name() + ": path '" + path
                    + "' is not an owserver path such as /28.000028D70000/temperature (a device, then its property;"
                    + " letters, digits, '.', '-' and '_')");
        }
        if (path.startsWith("/uncached/")) {
            throw new IllegalArgumentException("1-Wire channel " + c.name() + ": path '" + path
                    + "' starts with /uncached; give the path alone and attribute uncached=\"true\"");
        }
        boolean uncached = flag("1-Wire channel " + c.name() + ": attribute uncached", c.attributes().get("uncached"),
                uncachedByDefault);
        String device = path.substring(0, path.lastIndexOf('/'));
        return new OnewireChannel(c.name(), path, device, uncached ? "/uncached" + path : path,
                kind(c.name(), c.attributes().get("type"), path));
    }

    /** The channel's attribute {@code type}, else the property's kind. */
    private static Kind kind(String channel, String type, String path) {
        if (type == null) {
            return Kind.of(path);
        }
        return switch (type.strip()) {
            case "decimal" -> Kind.DECIMAL;
            case "whole" -> Kind.WHOLE;
            case "text" -> Kind.TEXT;
            default -> throw new IllegalArgumentException("1-Wire channel " + channel + ": attribute type is decimal,"
                    + " whole or text, not '" + type + "'");
        };
    }

    /** A true/false setting, or {@code fallback} when absent. */
    static boolean flag(String what, String value, boolean fallback) {
        if (value == null) {
            return fallback;
        }
        return switch (value.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(what + " is true or false, not '" + value + "'");
        };
    }
}
