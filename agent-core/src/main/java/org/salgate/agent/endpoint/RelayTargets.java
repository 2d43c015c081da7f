package org.salgate.agent.endpoint;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The lower agents this agent may connect to, as {@code HOST:PORT} entries given by its operator
 * ({@code --relay-allow}); none by default. An {@code agent:HOST:PORT} endpoint is accepted only
 * when it names one of them exactly (host names compared without case, nothing resolved), and
 * every other endpoint is refused with the same message before any connection is tried, so the
 * refusal tells nothing about what is reachable from the agent. Immutable.
 */
public final class RelayTargets {

    private static final RelayTargets NONE = new RelayTargets(Set.of());

    private final Set<String> allowed;

    private RelayTargets(Set<String> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    /** No relay target: protocols of type {@code agent} are refused. */
    public static RelayTargets none() {
        return NONE;
    }

    /**
     * The given {@code HOST:PORT} entries ({@code [v6-address]:PORT} for IPv6).
     *
     * @throws IllegalArgumentException naming the first entry that is not {@code HOST:PORT}
     */
    public static RelayTargets of(List<String> entries) {
        Set<String> allowed = new LinkedHashSet<>();
        for (String entry : entries) {
            String key = key(entry);
            if (key == null) {
                throw new IllegalArgumentException("relay target '" + entry + "' is not HOST:PORT with a port from 1 "
                        + "to 65535, such as 10.0.0.5:7431");
            }
            allowed.add(key);
        }
        return new RelayTargets(allowed);
    }

    /** The allowed targets, as given. */
    public Set<String> entries() {
        return allowed;
    }

    /**
     * Checks the address of an {@code agent} endpoint.
     *
     * @throws EndpointException the same refusal for every address not allowed
     */
    public void check(String address) throws EndpointException {
        String key = key(address);
        if (key == null || !allowed.contains(key)) {
            throw new EndpointException("endpoint 'agent:" + address.strip() + "' is not an allowed relay target: "
                    + "this agent connects only to the HOST:PORT entries its operator gives with --relay-allow");
        }
    }

    /** {@code host:port} in a canonical form, or null when it is not one. */
    private static String key(String address) {
        String a = address == null ? "" : address.strip();
        int colon = a.lastIndexOf(':');
        if (colon <= 0 || colon == a.length() - 1) {
            return null;
        }
        String host = a.substring(0, colon).strip();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '[' || c == ']')) {
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(a.substring(colon + 1).strip());
        } catch (NumberFormatException e) {
            return null;
        }
        if (port < 1 || port > 65535) {
            return null;
        }
        return host.toLowerCase(Locale.ROOT) + "|" + port;
    }

    @Override
    public String toString() {
        return "RelayTargets" + allowed;
    }
}
