package org.salgate.agent.endpoint;

import java.util.Map;
import java.util.TreeMap;
import org.salgate.plugin.spi.Endpoint;

/**
 * The endpoint layer: the endpoint types this agent knows, and the parser of PCML endpoint
 * specifications ({@code type} or {@code type:address}). Thread-safe.
 */
public final class Endpoints {

    /** The machine itself, for operating-system sensors; takes no address. */
    public static final String OS = "os";
    /** A port for software (dummy) sensors; any address names a separate namespace. */
    public static final String VIRTUAL = "virtual";
    /**
     * Another agent, whose sensors a protocol of type {@code agent} serves as its own; the address
     * ({@code host:port}) is required and checked by that plugin, which holds the connection.
     */
    public static final String AGENT = "agent";

    private enum AddressRule { NONE, OPTIONAL, REQUIRED }

    private final Map<String, EndpointFactory> factories = new TreeMap<>();

    private Endpoints() {}

    /**
     * The endpoint types every agent has: {@code os}, {@code virtual} and {@code agent}, the last
     * with no allowed target ({@link RelayTargets#none()}).
     */
    public static Endpoints standard() {
        return standard(RelayTargets.none());
    }

    /** The standard endpoint types, with {@code agent} endpoints limited to {@code relayTargets}. */
    public static Endpoints standard(RelayTargets relayTargets) {
        Endpoints endpoints = new Endpoints();
        endpoints.register(new Fixed(OS, AddressRule.NONE));
        endpoints.register(new Fixed(VIRTUAL, AddressRule.OPTIONAL));
        endpoints.register(new Relay(relayTargets));
        return endpoints;
    }

    /**
     * Adds an endpoint type.
     *
     * @throws IllegalArgumentException if the type is known already
     */
    public synchronized void register(EndpointFactory factory) {
        String type = factory.type();
        if (factories.putIfAbsent(type, factory) != null) {
            throw new IllegalArgumentException("endpoint type '" + type + "' is registered already");
        }
    }

    /** The known endpoint types, sorted. */
    public synchronized java.util.Set<String> types() {
        return java.util.Set.copyOf(factories.keySet());
    }

    /**
     * Parses a specification such as {@code os} or {@code serial:/dev/ttyUSB0}: the type is what
     * comes before the first colon.
     *
     * @throws EndpointException if it is blank or names an unknown type
     */
    public Endpoint parse(String spec) throws EndpointException {
        String trimmed = spec == null ? "" : spec.trim();
        if (trimmed.isEmpty()) {
            throw new EndpointException("a protocol needs an endpoint, such as 'os' or 'virtual'");
        }
        int colon = trimmed.indexOf(':');
        String type = colon < 0 ? trimmed : trimmed.substring(0, colon);
        String address = colon < 0 ? "" : trimmed.substring(colon + 1);
        EndpointFactory factory;
        synchronized (this) {
            factory = factories.get(type);
        }
        if (factory == null) {
            throw new EndpointException("unknown endpoint type '" + type + "' in '" + trimmed
                    + "'; this agent knows: " + String.join(", ", new TreeMap<>(factories).keySet()));
        }
        return factory.create(address);
    }

    /** {@code agent:host:port}, for the allowed targets only. */
    private record Relay(RelayTargets targets) implements EndpointFactory {
        @Override
        public String type() {
            return AGENT;
        }

        @Override
        public Endpoint create(String address) throws EndpointException {
            Endpoint endpoint = new Fixed(AGENT, AddressRule.REQUIRED).create(address);
            targets.check(address);
            return endpoint;
        }
    }

    /** A type whose endpoints carry no resource of their own. */
    private record Fixed(String type, AddressRule rule) implements EndpointFactory {
        @Override
        public Endpoint create(String address) throws EndpointException {
            if (rule == AddressRule.NONE && !address.isEmpty()) {
                throw new EndpointException("endpoint '" + type + "' takes no address; write just '" + type + "'");
            }
            if (rule == AddressRule.REQUIRED && address.isBlank()) {
                throw new EndpointException("endpoint '" + type + "' needs an address; write '" + type
                        + ":host:port'");
            }
            return new SimpleEndpoint(type, address);
        }
    }
}
