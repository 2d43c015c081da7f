package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.function.LongSupplier;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;

/**
 * What the http server does with requests other than its clients' WebSocket, and which requests it
 * refuses from their headers. The server finds one {@link Factory} by {@link java.util.ServiceLoader}
 * (salgate-transport-http-rest: the REST API, event streams and web page); without one, requests are
 * answered 404 and any from a web page (with an {@code Origin}) 403.
 */
public interface HttpDoor {

    /** The refusal of a request from its headers, before its body is read, or null; on the event loop. */
    FullHttpResponse refusal(HttpRequest request, Channel channel);

    /** Answers a request whose body arrived whole, by {@link Exchange#respond} or {@link Exchange#stream}. */
    void answer(Exchange exchange);

    /** The server stops: what the door holds open is closed (nothing, when its sessions close with their connections). */
    default void close() {
    }

    /** Opens the door of one server; registered in {@code META-INF/services/org.salgate.transport.http.HttpDoor$Factory}. */
    interface Factory {

        /**
         * @param handler the agent, which the door's requests are calls to
         * @param options the server's options
         * @param budget what the whole server may hold, which the door's sessions draw on too
         * @param sessionIds numbers the sessions, the WebSocket's and the door's alike
         */
        HttpDoor open(ServerHandler handler, ServerOptions options, MemoryBudget budget, LongSupplier sessionIds);
    }

    /** The door of a server without one: nothing but 404, and no web page let in. */
    HttpDoor NONE = new HttpDoor() {
        @Override
        public FullHttpResponse refusal(HttpRequest request, Channel channel) {
            return request.headers().contains(HttpHeaderNames.ORIGIN) ? Replies.error(HttpResponseStatus.FORBIDDEN,
                    "FORBIDDEN_ORIGIN", "this agent takes no requests from web pages") : null;
        }

        @Override
        public void answer(Exchange exchange) {
            exchange.respond(Replies.error(HttpResponseStatus.NOT_FOUND, "NOT_FOUND", "no such path: " + exchange.path()));
        }
    };
}
