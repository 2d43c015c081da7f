package org.salgate.agent.endpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.salgate.plugin.spi.DeviceAddress;

/**
 * The devices this agent's protocols may reach, as its operator gives them ({@code --device-allow}):
 * {@code HOST:PORT} or {@code HOST:*} for devices on the network ({@code [v6-address]:PORT} for
 * IPv6), and {@code /dev/PATH} for ports of this machine, where {@code *} matches any characters but
 * {@code /} ({@code /dev/ttyUSB*}). None by default. An endpoint whose target is not allowed is
 * refused with the same message whatever it names, before the protocol is opened, so the refusal
 * tells nothing about what is reachable from the agent. Host names are compared without case and
 * nothing is resolved. Immutable.
 */
public final class DeviceTargets {

    private static final DeviceTargets NONE = new DeviceTargets(List.of(), List.of(), List.of());

    /** A network entry; port 0 is any port. */
    private record HostPort(String host, int port) {}

    private final List<HostPort> hosts;
    private final List<Pattern> ports;
    private final List<String> entries;

    private DeviceTargets(List<HostPort> hosts, List<Pattern> ports, List<String> entries) {
        this.hosts = List.copyOf(hosts);
        this.ports = List.copyOf(ports);
        this.entries = List.copyOf(entries);
    }

    /** No device: every endpoint with a target is refused. */
    public static DeviceTargets none() {
        return NONE;
    }

    /**
     * The given entries.
     *
     * @throws IllegalArgumentException naming the first entry that is neither {@code HOST:PORT},
     *                                  {@code HOST:*} nor {@code /dev/PATH}
     */
    public static DeviceTargets of(List<String> given) {
        List<HostPort> hosts = new ArrayList<>();
        List<Pattern> ports = new ArrayList<>();
        List<String> entries = new ArrayList<>();
        for (String entry : given) {
            String e = entry == null ? "" : entry.strip();
            if (e.startsWith("/")) {
                if (!e.startsWith("/dev/") || e.length() == "/dev/".length() || e.contains("/../")
                        || e.endsWith("/..") || e.chars().anyMatch(Character::isWhitespace)) {
                    throw new IllegalArgumentException("device '" + entry + "' is not a port of this machine under "
                            + "/dev/, such as /dev/ttyUSB0 or /dev/ttyUSB*");
                }
                ports.add(glob(e));
            } else {
                HostPort hp = hostPort(e);
                if (hp == null) {
                    throw new IllegalArgumentException("device '" + entry + "' is not HOST:PORT (a port from 1 to "
                            + "65535), HOST:* or /dev/PATH, such as 10.0.0.5:502, 10.0.0.5:* or /dev/ttyUSB0");
                }
                hosts.add(hp);
            }
            entries.add(e);
        }
        return new DeviceTargets(hosts, ports, entries);
    }

    /** The allowed devices, as given. */
    public List<String> entries() {
        return entries;
    }

    /**
     * Checks the target of an endpoint.
     *
     * @param spec the endpoint as written, for the message
     * @throws EndpointException the same refusal for every target not allowed
     */
    public void check(String spec, DeviceAddress target) throws EndpointException {
        boolean allowed;
        if (target instanceof DeviceAddress.Network n) {
            String host = n.host().toLowerCase(Locale.ROOT);
            allowed = hosts.stream().anyMatch(h -> h.host().equals(host) && (h.port() == 0 || h.port() == n.port()));
        } else {
            String path = target.spec();
            allowed = !path.contains("/../") && ports.stream().anyMatch(g -> g.matcher(path).matches());
        }
        if (!allowed) {
            throw new EndpointException("endpoint '" + spec + "' is not an allowed device: this agent reaches only "
                    + "the devices its operator gives with --device-allow (HOST:PORT, HOST:* or /dev/PATH)");
        }
    }

    private static Pattern glob(String path) {
        StringBuilder regex = new StringBuilder();
        for (String part : path.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append("[^/]*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString());
    }

    /** {@code host:port} or {@code host:*} (port 0), or null when it is neither. */
    private static HostPort hostPort(String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
            return null;
        }
        String host = entry.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            return null;
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '[' || c == ']')) {
            return null;
        }
        String port = entry.substring(colon + 1);
        if (port.equals("*")) {
            return new HostPort(host.toLowerCase(Locale.ROOT), 0);
        }
        try {
            int p = Integer.parseInt(port);
            return p >= 1 && p <= 65535 ? new HostPort(host.toLowerCase(Locale.ROOT), p) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "DeviceTargets" + entries;
    }
}
