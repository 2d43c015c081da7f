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
 * The last handler of a WebSocket connection, server and client alike: once its {@link End} has the
 * handshake done, decodes each binary message with the connection's codec and hands it to the end,
 * in order. Another kind of message, one that does not decode, or any failure closes the
 * connection, the first one reported as its end.
 */
final class WebSocketHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketHandler.class);

    /** What one end does with its WebSocket: the server's session ({@link WebSocketIntake}), the client's handshake. */
    interface End {

        /** The codec of the connection's messages if {@code evt} says the handshake is done, else null. */
        ConnectionCodec opened(ChannelHandlerContext ctx, Object evt);

        /** A message arrived. */
        void received(ChannelHandlerContext ctx, Message message);

        /** The connection closed, its WebSocket up or not; {@code failure} is why, or null. */
        void closed(ChannelHandlerContext ctx, Throwable failure);
    }

    private final End end;
    /** Null until the WebSocket is up. */
    private ConnectionCodec codec;
    /** Why the connection ends: the first cause reported, or null. */
    private Throwable failure;

    WebSocketHandler(End end) {
        this.end = end;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (codec == null) {
            codec = end.opened(ctx, evt);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
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
                exceptionCaught(ctx, e);
                return;
            }
            end.received(ctx, message);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Records the first cause of the end, and closes. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ended(cause)) {
            LOG.debug("closing {}: {}", ctx.channel(), cause.toString());
        }
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }

    /** Records {@code cause} as why the connection ends, unless it ended already: whether it was the first. */
    boolean ended(Throwable cause) {
        if (failure != null) {
            return false;
        }
        failure = cause;
        return true;
    }

    /** Whether a cause of the end was reported. */
    boolean ending() {
        return failure != null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        end.closed(ctx, failure);
        ctx.fireChannelInactive();
    }
}
