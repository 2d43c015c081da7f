package org.salgate.agent.endpoint;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.EndpointType;

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
    private final DeviceTargets deviceTargets;

    private Endpoints(DeviceTargets deviceTargets) {
        this.deviceTargets = deviceTargets;
    }

    /**
     * The endpoint types every agent has: {@code os}, {@code virtual} and {@code agent}, the last
     * with no allowed target ({@link RelayTargets#none()}).
     */
    public static Endpoints standard() {
        return standard(RelayTargets.none());
    }

    /** The standard endpoint types, with {@code agent} endpoints limited to {@code relayTargets}. */
    public static Endpoints standard(RelayTargets relayTargets) {
        return standard(relayTargets, DeviceTargets.none());
    }

    /**
     * The standard endpoint types, with {@code agent} endpoints limited to {@code relayTargets} and
     * the endpoints of the types plugins bring ({@link #registerTypes}) to {@code deviceTargets}.
     */
    public static Endpoints standard(RelayTargets relayTargets, DeviceTargets deviceTargets) {
        Endpoints endpoints = new Endpoints(deviceTargets);
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

    /**
     * Adds the endpoint types a plugin brings, all or none. A type known already with the same
     * syntax is shared (device drivers all bring {@code tcp}); with another syntax, or one of the
     * agent's own types, it is refused.
     *
     * @throws IllegalArgumentException saying which type clashes, and with what
     */
    public synchronized void registerTypes(List<EndpointType> types) {
        Map<String, EndpointFactory> next = new TreeMap<>(factories);
        for (EndpointType t : types) {
            EndpointFactory known = next.get(t.name());
            if (known == null) {
                next.put(t.name(), new Device(t, deviceTargets));
            } else {
                String syntax = known instanceof Device d ? d.kind().syntax() : null;
                if (!t.syntax().equals(syntax)) {
                    throw new IllegalArgumentException("endpoint type '" + t.name() + "' (" + t.syntax() + ") is known "
                            + "already " + (syntax == null ? "as one of the agent's own" : "as " + syntax)
                            + "; plugins share a type only with the same syntax");
                }
            }
        }
        factories.clear();
        factories.putAll(next);
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

    /** An endpoint type a plugin brought: its endpoints reach a device, among the allowed ones only. */
    private record Device(EndpointType kind, DeviceTargets targets) implements EndpointFactory {
        @Override
        public String type() {
            return kind.name();
        }

        @Override
        public Endpoint create(String address) throws EndpointException {
            String spec = kind.name() + ":" + address.strip();
            if (address.isBlank()) {
                throw new EndpointException("endpoint '" + kind.name() + "' needs an address; write " + kind.syntax());
            }
            DeviceAddress target;
            try {
                target = kind.parse(address);
            } catch (IllegalArgumentException e) {
                throw new EndpointException("endpoint '" + spec + "': " + e.getMessage());
            }
            targets.check(spec, target);
            return new DeviceEndpoint(kind.name(), address.strip(), target);
        }
    }

    /** An endpoint that reaches a device. */
    private record DeviceEndpoint(String type, String address, DeviceAddress device) implements Endpoint {
        @Override
        public Optional<DeviceAddress> target() {
            return Optional.of(device);
        }

        @Override
        public String toString() {
            return spec();
        }
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
