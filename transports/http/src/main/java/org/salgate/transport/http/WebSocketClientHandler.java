package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.HandlerCalls;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/**
 * The last handler of a client connection: completes {@code handshake} when the WebSocket is up,
 * then hands each message to the {@link ClientHandler}, in order.
 */
final class WebSocketClientHandler extends WebSocketEnd {

    private final ClientHandler handler;
    private final ConnectionCodec codec;
    private final CompletableFuture<Void> handshake;

    WebSocketClientHandler(ClientHandler handler, ConnectionCodec codec, CompletableFuture<Void> handshake) {
        this.handler = handler;
        this.codec = codec;
        this.handshake = handshake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
            compactAfterEveryRead(ctx);
            handshake.complete(null);
        } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
            handshake.completeExceptionally(new IOException("the agent did not answer the WebSocket handshake"));
        }
        super.userEventTriggered(ctx, evt);
    }

    /**
     * Netty's WebSocket frame decoder compacts its buffer every 16 reads by default, so a stream of
     * large messages grew it to 4 MB ({@code WebSocketClientReadBufferTest}; docs/performance.md);
     * compacted after every read it stays about a message and a read in size.
     */
    private static void compactAfterEveryRead(ChannelHandlerContext ctx) {
        WebSocket08FrameDecoder decoder = ctx.pipeline().get(WebSocket08FrameDecoder.class);
        if (decoder != null) {
            decoder.setDiscardAfterReads(1);
        }
    }

    @Override
    protected ConnectionCodec codec() {
        return codec;
    }

    @Override
    protected void received(ChannelHandlerContext ctx, Message message) {
        HandlerCalls.accept(handler::messageReceived, message, "a message", ctx.channel());
    }

    @Override
    protected void closed(ChannelHandlerContext ctx) {
        if (!handshake.isDone()) {
            // A failure closes the connection: the handshake fails with it.
            handshake.completeExceptionally(failure != null ? failure
                    : new IOException("the agent closed the connection during the handshake"));
        } else {
            HandlerCalls.accept(handler::closed, failure, "closing", ctx.channel());
        }
    }
}
