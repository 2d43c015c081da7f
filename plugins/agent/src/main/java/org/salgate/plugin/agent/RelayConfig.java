package org.salgate.plugin.agent;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.Codecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where and how a protocol of type {@code agent} reaches its lower agent, read from its PCML entry.
 *
 * @param host the lower agent's host
 * @param port the lower agent's port
 * @param transport the transport the lower agent serves, by name
 * @param codec the codec the lower agent speaks, by name
 * @param prefix put before each lower sensor id to make the id it has here
 * @param timeout how long connecting (with the hello) and each request may take
 * @param retry how long after a failed connection attempt the next one is made
 * @param tls how the relay trusts the lower agent's TLS certificate, or null to connect without TLS
 * @param token the bearer token the relay presents, or the empty string for none
 */
public record RelayConfig(String host, int port, String transport, String codec, String prefix, Duration timeout,
                          Duration retry, TlsConfig tls, String token) {

    public static final String TRANSPORT = "transport";
    public static final String CODEC = "codec";
    public static final String PREFIX = "prefix";
    public static final String TIMEOUT_MS = "timeoutMs";
    public static final String RETRY_MS = "retryMs";
    public static final String TLS = "tls";
    public static final String TLS_CA = "tlsCa";
    public static final String TLS_PIN = "tlsPin";
    public static final String TOKEN_FILE = "tokenFile";
    public static final String TOKEN_ENV = "tokenEnv";
    /** Refused: the PCML is shown to admins ({@code config}), so it must not hold the token itself. */
    static final String TOKEN = "token";
    /** The value of {@value #TLS} that trusts the JVM's CAs. */
    static final String TLS_SYSTEM = "system";

    static final long DEFAULT_TIMEOUT_MS = 5_000;
    static final long DEFAULT_RETRY_MS = 5_000;
    /** One day: longer is a typo; a relayed read blocks an agent thread for this long at most. */
    static final long MAX_MS = 86_400_000;

    private static final Logger LOG = LoggerFactory.getLogger(RelayConfig.class);
    private static final Set<String> KNOWN = Set.of(TRANSPORT, CODEC, PREFIX, TIMEOUT_MS, RETRY_MS, TLS, TLS_CA, TLS_PIN,
            TOKEN_FILE, TOKEN_ENV);
    /** Safe in sensor ids, CLI arguments and gml:ids; may be empty. */
    private static final Pattern PREFIX_SYNTAX = Pattern.compile("[A-Za-z0-9_.-]{0,64}");

    public RelayConfig {
        token = token == null ? "" : token;
    }

    /** A relay over plain TCP without a token. */
    public RelayConfig(String host, int port, String transport, String codec, String prefix, Duration timeout,
                       Duration retry) {
        this(host, port, transport, codec, prefix, timeout, retry, null, "");
    }

    /** Its fields, with whether it has a token but never the token. */
    @Override
    public String toString() {
        return "RelayConfig[" + address() + " over " + transport + "/" + codec + ", prefix '" + prefix + "', "
                + (tls == null ? "plain" : tls.toString()) + ", " + (token.isEmpty() ? "no token" : "a token")
                + ", timeout " + timeout.toMillis() + " ms, retry " + retry.toMillis() + " ms]";
    }

    /** The lower agent's address as {@code host:port}. */
    public String address() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }

    /**
     * Reads a protocol entry bound to an {@code agent:host:port} endpoint. The transport and codec
     * must be on the class path; a CA file and a token file are read now.
     *
     * @throws PluginException saying which part is wrong and what to write instead
     */
    public static RelayConfig of(ProtocolConfig config, Endpoint endpoint) throws PluginException {
        return of(config, endpoint, System::getenv);
    }

    /** As {@link #of(ProtocolConfig, Endpoint)}, reading {@value #TOKEN_ENV}'s variable from {@code environment}. */
    static RelayConfig of(ProtocolConfig config, Endpoint endpoint, UnaryOperator<String> environment)
            throws PluginException {
        String name = config.name();
        if (config.parameters().containsKey(TOKEN)) {
            throw new PluginException("Protocol " + name + " does not take parameter " + TOKEN + ": the PCML is shown"
                    + " to admins, so give " + TOKEN_FILE + " (a file holding the token) or " + TOKEN_ENV
                    + " (the name of an environment variable holding it) instead.");
        }
        if (!AgentPlugin.ENDPOINT_TYPE.equals(endpoint.type())) {
            throw new PluginException("Protocol " + name + " of type agent needs an endpoint 'agent:host:port', not '"
                    + endpoint.spec() + "'.");
        }
        for (String key : config.parameters().keySet()) {
            if (!KNOWN.contains(key)) {
                LOG.warn("Protocol {} ignores unknown parameter '{}'; a protocol of type agent takes {}.", name, key,
                        String.join(", ", new TreeSet<>(KNOWN)));
            }
        }
        String address = endpoint.address().trim();
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon).trim();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (colon < 0 || host.isEmpty() || colon == address.length() - 1) {
            throw new PluginException("Protocol " + name + " needs the lower agent's host and port in its endpoint, "
                    + "such as 'agent:10.0.0.5:7431', not '" + endpoint.spec() + "'.");
        }
        String rawPort = address.substring(colon + 1).trim();
        int port = parsePort(rawPort);
        if (port < 1) {
            throw new PluginException("Protocol " + name + ": the port in endpoint '" + endpoint.spec()
                    + "' must be a whole number from 1 to 65535, not '" + rawPort + "'.");
        }
        String transport = config.parameter(TRANSPORT, Transports.DEFAULT).trim();
        try {
            Transports.byName(transport);
        } catch (IllegalArgumentException e) {
            throw new PluginException("Protocol " + name + ", parameter " + TRANSPORT + ": " + e.getMessage() + ".");
        }
        String codec = config.parameter(CODEC, Codecs.DEFAULT).trim();
        try {
            Codecs.byName(codec);
        } catch (IllegalArgumentException e) {
            throw new PluginException("Protocol " + name + ", parameter " + CODEC + ": " + e.getMessage() + ".");
        }
        String prefix = config.parameter(PREFIX, name + ".").trim();
        if (!PREFIX_SYNTAX.matcher(prefix).matches()) {
            throw new PluginException("Parameter " + PREFIX + " of protocol " + name
                    + " may hold only letters, digits, '_', '-' and '.' (at most 64), not '" + prefix + "'.");
        }
        Duration timeout = millis(config, TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
        Duration retry = millis(config, RETRY_MS, DEFAULT_RETRY_MS);
        TlsConfig tls = RelayTrust.of(config);
        String token = RelayToken.of(config, environment);
        if (tls == null && !token.isEmpty()) {
            LOG.warn("Protocol {} sends its token to the lower agent at {} without TLS; give {}, {} or {}={} to"
                    + " keep it from the network.", name, endpoint.address(), TLS_CA, TLS_PIN, TLS, TLS_SYSTEM);
        }
        return new RelayConfig(host, port, transport, codec, prefix, timeout, retry, tls, token);
    }

    private static int parsePort(String raw) {
        try {
            int port = Integer.parseInt(raw);
            return port >= 1 && port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Duration millis(ProtocolConfig config, String key, long fallback) throws PluginException {
        String raw = config.parameters().get(key);
        if (raw == null) {
            return Duration.ofMillis(fallback);
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 1 || value > MAX_MS) {
            throw new PluginException("Parameter " + key + " of protocol " + config.name()
                    + " must be a whole number of milliseconds from 1 to " + MAX_MS + ", not '" + raw + "'.");
        }
        return Duration.ofMillis(value);
    }
}
