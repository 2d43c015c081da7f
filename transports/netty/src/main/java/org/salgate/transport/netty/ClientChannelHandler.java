package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.salgate.transport.ClientHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The last handler of a client channel: decodes frames for the {@link ClientHandler}, in order. */
final class ClientChannelHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ClientChannelHandler.class);

    private final ClientHandler handler;
    private final ConnectionCodec codec;
    private Throwable failure;
    private boolean closedReported;

    ClientChannelHandler(ClientHandler handler, ConnectionCodec codec) {
        this.handler = handler;
        this.codec = codec;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (failure != null) {
                return;
            }
            Message message;
            try {
                message = Frames.decode(codec, frame);
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
            frame.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, FrameDecoder.unwrap(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!closedReported) {
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
