package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * Before the WebSocket handshake handler: a request for {@value HttpTransportProvider#WEBSOCKET_PATH}
 * without an upgrade, and a {@link RequestHandler.Refusal}, skip it for the request handler.
 */
final class WebSocketGate extends ChannelInboundHandlerAdapter {

    private final String handshakeHandler;

    /** @param handshakeHandler the name of the WebSocket handler in the pipeline, which a plain request skips */
    WebSocketGate(String handshakeHandler) {
        this.handshakeHandler = handshakeHandler;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof RequestHandler.Refusal) {
            ctx.pipeline().context(handshakeHandler).fireChannelRead(msg); // answered by the REST handler
            return;
        }
        if (msg instanceof HttpRequest request
                && HttpTransportProvider.WEBSOCKET_PATH.equals(new QueryStringDecoder(request.uri()).path())
                && !HttpHeaderValues.WEBSOCKET.contentEqualsIgnoreCase(request.headers().get(HttpHeaderNames.UPGRADE))) {
            ctx.pipeline().context(handshakeHandler).fireChannelRead(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
