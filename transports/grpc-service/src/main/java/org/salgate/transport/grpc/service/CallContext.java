package org.salgate.transport.grpc.service;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.SocketAddress;

/**
 * What a call's handler needs from its transport: the caller's address (for the agent's logs) and
 * the bearer token of its {@code authorization} metadata (the hello's credentials).
 */
public final class CallContext implements ServerInterceptor {

    /** The metadata that carries the caller's credentials, as {@code Bearer <token>}. */
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String BEARER = "Bearer ";
    private static final Context.Key<String> REMOTE = Context.key("salgate-remote-address");
    private static final Context.Key<String> TOKEN = Context.key("salgate-bearer-token");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        Context context = Context.current()
                .withValue(REMOTE, remote == null ? "unknown" : remote.toString())
                .withValue(TOKEN, bearerToken(headers.get(AUTHORIZATION)));
        return Contexts.interceptCall(context, call, headers, next);
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
        String remote = REMOTE.get();
        return remote == null ? "unknown" : remote;
    }

    /** The current call's bearer token, or the empty string. */
    public static String credentials() {
        String token = TOKEN.get();
        return token == null ? "" : token;
    }
}
