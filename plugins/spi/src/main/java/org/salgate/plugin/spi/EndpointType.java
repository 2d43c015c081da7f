package org.salgate.plugin.spi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A kind of endpoint a plugin brings, such as {@code tcp} for devices on the network or
 * {@code serial} for serial lines: PCML names it before the first colon of a protocol's endpoint
 * ({@code tcp:10.0.0.5:502}), and the type parses what follows into the {@link DeviceAddress}
 * the agent checks against the devices the operator allowed.
 *
 * @param name the type's name, lower case, unique on the agent; a URL scheme such as {@code opc.tcp} is
 *             one too ({@code opc.tcp://HOST:PORT/PATH}: the address is what follows the first colon)
 * @param syntax how an endpoint of this type is written, for messages and listings
 * @param parser parses the address part, throwing {@link IllegalArgumentException} with a message
 *               that says what is wrong and how to write it
 */
public record EndpointType(String name, String syntax, Parser parser) {

    /** Parses the part of an endpoint after {@code name:}. */
    @FunctionalInterface
    public interface Parser {
        DeviceAddress parse(String address);
    }

    /** The serial line settings a {@link #serial} endpoint accepts. */
    public static final Set<String> SERIAL_OPTIONS = Set.of("baud", "data-bits", "parity", "stop-bits");

    public EndpointType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(syntax, "syntax");
        Objects.requireNonNull(parser, "parser");
        if (!name.matches("[a-z][a-z0-9.-]*")) {
            // '.' for URL schemes such as OPC UA's opc.tcp
            throw new IllegalArgumentException("an endpoint type's name is lower-case letters, digits, '.' and '-': "
                    + name);
        }
    }

    /** Parses an address of this type. */
    public DeviceAddress parse(String address) {
        return parser.parse(address);
    }

    /**
     * Devices on the network, written {@code name:HOST:PORT} ({@code name:[::1]:PORT} for an IPv6
     * address) or {@code name:HOST} for {@code defaultPort}.
     */
    public static EndpointType network(String name, int defaultPort) {
        String syntax = name + ":HOST:PORT";
        return new EndpointType(name, syntax, address -> {
            String a = address.strip();
            String host;
            String port;
            if (a.startsWith("[")) {
                int close = a.indexOf(']');
                if (close < 0) {
                    throw new IllegalArgumentException("'" + address + "' opens an IPv6 address with '[' but does not"
                            + " close it; write " + syntax + ", such as " + name + ":[::1]:" + defaultPort);
                }
                host = a.substring(1, close);
                String rest = a.substring(close + 1);
                if (!rest.isEmpty() && !rest.startsWith(":")) {
                    throw new IllegalArgumentException("'" + address + "' has '" + rest + "' after the IPv6 address;"
                            + " write " + syntax);
                }
                port = rest.isEmpty() ? "" : rest.substring(1);
            } else {
                int colon = a.lastIndexOf(':');
                if (colon >= 0 && a.indexOf(':') != colon) {
                    throw new IllegalArgumentException("'" + address + "' has several ':'; write an IPv6 address in"
                            + " brackets, such as " + name + ":[::1]:" + defaultPort);
                }
                host = colon < 0 ? a : a.substring(0, colon);
                port = colon < 0 ? "" : a.substring(colon + 1);
            }
            if (host.isBlank()) {
                throw new IllegalArgumentException("'" + address + "' names no host; write " + syntax + ", such as "
                        + name + ":192.0.2.10:" + defaultPort);
            }
            int p = port.isEmpty() ? defaultPort : parsePort(port, address, syntax);
            return new DeviceAddress.Network(host, p);
        });
    }

    /**
     * Serial lines of this machine, written {@code name:/dev/ttyUSB0} or with settings,
     * {@code name:/dev/ttyUSB0?baud=9600&parity=even}; the settings are those of {@link #SERIAL_OPTIONS}.
     */
    public static EndpointType serial(String name) {
        String syntax = name + ":/dev/PORT[?baud=9600&data-bits=8&parity=none&stop-bits=1]";
        return new EndpointType(name, syntax, address -> {
            String a = address.strip();
            int query = a.indexOf('?');
            String path = query < 0 ? a : a.substring(0, query);
            if (!path.startsWith("/dev/") || path.length() == "/dev/".length() || path.contains("/../")) {
                throw new IllegalArgumentException("'" + path + "' is not a serial port; write " + syntax);
            }
            Map<String, String> options = new LinkedHashMap<>();
            if (query >= 0) {
                for (String pair : a.substring(query + 1).split("&")) {
                    int eq = pair.indexOf('=');
                    String key = eq < 0 ? pair : pair.substring(0, eq);
                    if (eq < 0 || !SERIAL_OPTIONS.contains(key) || options.put(key, pair.substring(eq + 1)) != null) {
                        throw new IllegalArgumentException("'" + pair + "' is not a serial setting (or is given twice);"
                                + " the settings are " + String.join(", ", SERIAL_OPTIONS.stream().sorted().toList())
                                + ", as in " + syntax);
                    }
                }
            }
            return new DeviceAddress.LocalPort(path, options);
        });
    }

    private static int parsePort(String port, String address, String syntax) {
        try {
            int p = Integer.parseInt(port);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + address + "' has port '" + port + "'; a port is 1 to 65535, as in "
                + syntax);
    }
}
