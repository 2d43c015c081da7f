package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.salgate.transport.ClientHandler;
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
            handshake.complete(null);
        } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
            handshake.completeExceptionally(new IOException("the agent did not answer the WebSocket handshake"));
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (failure != null || !(msg instanceof WebSocketFrame)) {
                return;
            }
            if (!(msg instanceof BinaryWebSocketFrame frame)) {
                fail(ctx, new CodecException("the agent sent a " + msg.getClass().getSimpleName()
                        + "; salgate frames travel as binary WebSocket messages"));
                return;
            }
            Message message;
            try {
                message = codec.decode(WebSocketServerHandler.bytes(frame.content()));
            } catch (CodecException e) {
                fail(ctx, e);
                return;
            }
            try {
                handler.messageReceived(message);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on a message", e);
            }
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
            try {
                handler.closed(failure);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            }
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
