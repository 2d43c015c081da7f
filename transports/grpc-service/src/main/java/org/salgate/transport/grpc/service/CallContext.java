package org.salgate.transport.grpc.service;

import io.grpc.Metadata;

/**
 * What a call's handler needs from its transport: the caller's address (for the agent's logs) and
 * the bearer token of its {@code authorization} metadata (the hello's credentials), as the call's
 * {@link CallBudget} keeps them.
 */
public final class CallContext {

    /** The metadata that carries the caller's credentials, as {@code Bearer <token>}. */
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String BEARER = "Bearer ";

    private CallContext() {
    }

    /** The token of an {@code authorization: Bearer <token>} value, or the empty string. */
    static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return "";
        }
        return authorization.substring(BEARER.length()).trim();
    }

    /** The current call's remote address. */
    public static String remoteAddress() {
        CallBudget call = CallBudget.current();
        return call == null ? "unknown" : call.remote;
    }

    /** The current call's bearer token, or the empty string. */
    public static String credentials() {
        CallBudget call = CallBudget.current();
        return call == null ? "" : call.token;
    }
}
