package org.salgate.plugin.onewire;

import java.util.regex.Pattern;
import org.salgate.sensorml.ProtocolConfig;

/**
 * A 1-Wire protocol's parameters: {@code timeout-ms} (default 2000, 1 to 60000), how long a
 * connection to owserver or one request may take; {@code uncached} (default false), whether every
 * channel reads the bus rather than owserver's cache; {@code persistent} (default true), whether
 * to keep the connection to owserver between requests; {@code discover} (default none), the
 * directory of owserver whose devices become channels at each connect ({@code /} for every bus,
 * {@code /bus.0} for one), null when absent.
 */
record OnewireSettings(int timeoutMs, boolean uncached, boolean persistent, String discover) {

    /** A directory of owserver: the root, or segments of letters, digits, '.', '-' and '_'. */
    private static final Pattern DIRECTORY = Pattern.compile("/|(/[A-Za-z0-9_.-]+){1,7}/?");

    /** @throws IllegalArgumentException naming the parameter that is wrong */
    static OnewireSettings of(ProtocolConfig config) {
        String prefix = "1-Wire protocol " + config.name() + ": parameter ";
        String timeout = config.parameters().get("timeout-ms");
        int timeoutMs = 2000;
        if (timeout != null) {
            try {
                timeoutMs = Integer.parseInt(timeout.strip());
            } catch (NumberFormatException e) {
                timeoutMs = -1;
            }
            if (timeoutMs < 1 || timeoutMs > 60_000) {
                throw new IllegalArgumentException(prefix + "timeout-ms is a whole number from 1 to 60000, not '"
                        + timeout + "'");
            }
        }
        String discover = config.parameters().get("discover");
        if (discover != null) {
            discover = discover.strip();
            if (!DIRECTORY.matcher(discover).matches() || discover.contains("/../") || discover.endsWith("/..")
                    || discover.startsWith("/uncached")) {
                throw new IllegalArgumentException(prefix + "discover is the owserver directory whose devices to"
                        + " list, such as / (every bus) or /bus.0, not '" + config.parameters().get("discover")
                        + "'");
            }
        }
        return new OnewireSettings(timeoutMs,
                OnewireChannel.flag(prefix + "uncached", config.parameters().get("uncached"), false),
                OnewireChannel.flag(prefix + "persistent", config.parameters().get("persistent"), true), discover);
    }
}
