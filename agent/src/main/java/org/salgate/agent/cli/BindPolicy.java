package org.salgate.agent.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whether the agent may listen where it was asked to. A loopback address is always allowed; any
 * other address (the wildcard {@code 0.0.0.0} included) needs both TLS and tokens, or the
 * operator's explicit {@code --insecure}, and then the agent warns that it runs insecure.
 *
 * @param allowed whether the agent may start
 * @param message the refusal when not allowed, the warning to log when allowed insecure, else null
 */
record BindPolicy(boolean allowed, String message) {

    static final String INSECURE_FLAG = "--insecure";

    /**
     * @param host the address to listen on, as given
     * @param tlsConfigured whether clients must speak TLS
     * @param tokensConfigured whether clients must present a token
     * @param insecure whether the operator gave {@value #INSECURE_FLAG}
     */
    static BindPolicy decide(String host, boolean tlsConfigured, boolean tokensConfigured, boolean insecure) {
        return decide(host, tlsConfigured, tokensConfigured, insecure, "listen", "listening",
                "read every sensor and change the platform");
    }

    /**
     * As {@link #decide(String, boolean, boolean, boolean)} for another door of the agent.
     *
     * @param verb what the agent would do there ("serve metrics"), and {@code doing} the same as a
     *             gerund ("serving metrics"), for the messages
     * @param exposed what anyone who reaches it could do ("read the agent's metrics")
     */
    static BindPolicy decide(String host, boolean tlsConfigured, boolean tokensConfigured, boolean insecure,
                             String verb, String doing, String exposed) {
        if (isLoopback(host) || (tlsConfigured && tokensConfigured)) {
            return new BindPolicy(true, null);
        }
        String missing = !tlsConfigured && !tokensConfigured ? "TLS and tokens"
                : !tlsConfigured ? "TLS (tokens would cross the network in the clear)" : "tokens";
        if (insecure) {
            return new BindPolicy(true, "running insecure (" + INSECURE_FLAG + "): " + doing + " on " + host
                    + " without " + missing + ", so anyone who can reach this port can " + exposed);
        }
        return new BindPolicy(false, "refusing to " + verb + " on " + host + " without " + missing + ": anyone who "
                + "can reach it could " + exposed + "; configure them, " + verb + " on 127.0.0.1, or add "
                + INSECURE_FLAG + " to run like this anyway");
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}
