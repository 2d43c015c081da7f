package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.HandlerCalls;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection: completes {@code handshake} when the WebSocket is up,
 * then decodes each binary message for the {@link ClientHandler}, in order.
 */
final class WebSocketClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketClientHandler.class);

    private final ClientHandler handler;
    private final ConnectionCodec codec;
    private final CompletableFuture<Void> handshake;
    private Throwable failure;
    private boolean closedReported;

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
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (failure != null || !(msg instanceof WebSocketFrame frame)) {
                return;
            }
            Message message;
            try {
                message = WebSocketFrames.decode(codec, frame);
            } catch (CodecException e) {
                fail(ctx, e);
                return;
            }
            HandlerCalls.accept(handler::messageReceived, message, "a message", ctx.channel());
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!handshake.isDone()) {
            handshake.completeExceptionally(cause);
        }
        fail(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!handshake.isDone()) {
            handshake.completeExceptionally(new IOException("the agent closed the connection during the handshake"));
        } else if (!closedReported) {
            closedReported = true;
            HandlerCalls.accept(handler::closed, failure, "closing", ctx.channel());
        }
        super.channelInactive(ctx);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
            LOG.debug("closing the connection: {}", cause.toString());
        }
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }
}
