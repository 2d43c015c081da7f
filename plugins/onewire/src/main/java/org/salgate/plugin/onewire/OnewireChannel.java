package org.salgate.plugin.onewire;

import java.util.Set;
import java.util.regex.Pattern;
import org.salgate.sensorml.ChannelConfig;

/**
 * One channel of a 1-Wire protocol: one property of one device as owserver names it, attribute
 * {@code path} ({@code /28.000028D70000/temperature}, {@code /26.F2FBE3467CC2/humidity},
 * {@code /1D.54F81BE8E78D/counter.A}), read from owserver's cache unless attribute
 * {@code uncached} (or the protocol's parameter of that name) is true.
 *
 * @param path the property's path, without {@code /uncached}
 * @param device the path's device part ({@code /28.000028D70000}), for messages and presence
 * @param requestPath what is asked of owserver: the path, under {@code /uncached} when uncached
 */
record OnewireChannel(String name, String path, String device, String requestPath) {

    static final Set<String> ATTRIBUTES = Set.of("path", "uncached");
    /** Segments of letters, digits, dot, dash and underscore; at least a device and a property. */
    private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9_.-]+){2,8}");

    /** @throws IllegalArgumentException naming what is wrong */
    static OnewireChannel of(ChannelConfig c, boolean uncachedByDefault) {
        for (String a : c.attributes().keySet()) {
            if (!ATTRIBUTES.contains(a)) {
                throw new IllegalArgumentException("1-Wire channel " + c.name() + ": unknown attribute '" + a
                        + "'; a 1-Wire channel has path and uncached");
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
        return new OnewireChannel(c.name(), path, device, uncached ? "/uncached" + path : path);
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
