package org.salgate.transport.http.rest;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.function.LongSupplier;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpDoor;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The http transport's door for people and programs other than salgate clients: the REST/JSON API
 * and its Server-Sent Events under {@code /api}, the OpenAPI document, and the live web page at
 * {@code /}. Before a request's body is read it is refused when the {@link BrowserRules} refuse it
 * (421, 403, 415), or when it asks for the API without a bearer token the agent
 * {@linkplain ServerHandler#admits admits} (401, with {@code WWW-Authenticate}): the page, its
 * files, the OpenAPI document and the WebSocket (which has its own hello) are public. Registered in
 * {@code META-INF/services/org.salgate.transport.http.HttpDoor$Factory}.
 */
public final class RestDoor implements HttpDoor.Factory {

    private static final Logger LOG = LoggerFactory.getLogger(RestDoor.class);
    private static final RateLimitedLog PEERS = new RateLimitedLog(LOG, Level.WARN);

    @Override
    public HttpDoor open(ServerHandler handler, ServerOptions options, MemoryBudget budget, LongSupplier sessionIds) {
        BrowserRules rules = BrowserRules.of(options);
        RestApi api = new RestApi(handler, options, sessionIds, budget);
        return new HttpDoor() {
            @Override
            public FullHttpResponse refusal(HttpRequest request, Channel channel) {
                FullHttpResponse refused = rules.refusal(request, channel);
                return refused != null ? refused : authenticationRefusal(handler, request, channel);
            }

            @Override
            public void answer(Exchange exchange) {
                api.dispatch(exchange);
            }

            @Override
            public void close() {
                api.closeAll();
            }
        };
    }

    /** A 401 for a request to the API without a token the agent admits. */
    private static FullHttpResponse authenticationRefusal(ServerHandler handler, HttpRequest request, Channel channel) {
        String path = new QueryStringDecoder(request.uri()).path();
        boolean isPublic = !path.startsWith("/api/") || path.equals("/api/openapi.json")
                || path.equals(HttpTransportProvider.WEBSOCKET_PATH);
        if (isPublic) {
            return null;
        }
        String token = Exchange.bearerToken(request);
        boolean admitted;
        try {
            admitted = handler.admits(token);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed checking a bearer token", e);
            admitted = false;
        }
        if (admitted) {
            return null;
        }
        PEERS.log("unauthenticated", "refusing requests from {} that carry no bearer token this agent accepts",
                channel.remoteAddress());
        return Replies.unauthenticated(!token.isEmpty());
    }
}
