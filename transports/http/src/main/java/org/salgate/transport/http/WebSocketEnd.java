package org.salgate.transport.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a WebSocket connection, server and client alike: decodes each binary message
 * with the connection's codec and hands it on, in order. Another kind of message, one that does not
 * decode, or any failure closes the connection, the first one reported as its end.
 */
abstract class WebSocketEnd extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketEnd.class);

    /** Why the connection ends: the first cause reported, or null. */
    protected Throwable failure;

    /** The codec of the connection's messages; null until the WebSocket is up. */
    protected abstract ConnectionCodec codec();

    /** A message arrived. */
    protected abstract void received(ChannelHandlerContext ctx, Message message);

    /** The connection closed, its WebSocket up or not. */
    protected abstract void closed(ChannelHandlerContext ctx);

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            ConnectionCodec codec = codec();
            if (failure != null || codec == null || !(msg instanceof WebSocketFrame frame)) {
                return;
            }
            Message message;
            try {
                if (!(frame instanceof BinaryWebSocketFrame)) {
                    throw new CodecException("salgate frames travel as binary WebSocket messages, got a "
                            + frame.getClass().getSimpleName());
                }
                message = codec.decode(ByteBufUtil.getBytes(frame.content()));
            } catch (CodecException e) {
                fail(ctx, e);
                return;
            }
            received(ctx, message);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, cause);
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        closed(ctx);
        ctx.fireChannelInactive();
    }

    /** Records the first cause of the end, and closes. */
    final void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
            LOG.debug("closing {}: {}", ctx.channel(), cause.toString());
        }
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }
}
