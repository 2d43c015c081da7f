package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a server channel: decodes frames for the {@link ServerHandler} and reports
 * the session's life.
 *
 * <p>Reading stops once the queued outbound bytes pass twice the high-water mark, and resumes
 * when the channel is writable again, so a client that sends requests without reading the
 * answers cannot make the server buffer without bound. Merely being unwritable does not stop
 * reading: streams keep a busy session near its high-water mark, and its client's requests (a stop)
 * must still get through.
 */
final class ServerChannelHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ServerChannelHandler.class);

    private final ServerHandler handler;
    private final NettySession session;
    private final long stopReadingAboveBytes;
    private Throwable failure;

    ServerChannelHandler(ServerHandler handler, NettySession session, int writeHighWaterBytes) {
        this.handler = handler;
        this.session = session;
        this.stopReadingAboveBytes = 2L * writeHighWaterBytes;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        try {
            handler.sessionOpened(session);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed on opening {}", session, e);
        }
        super.channelActive(ctx);
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
                message = Frames.decode(session.codec(), frame);
            } catch (CodecException e) {
                fail(ctx, e);
                return;
            }
            try {
                handler.messageReceived(session, message);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on a message of {}", session, e);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        if (!ch.isWritable() && pendingBytes(ch) > stopReadingAboveBytes) {
            ch.config().setAutoRead(false);
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        if (ch.isWritable()) {
            if (failure == null && !ch.config().isAutoRead()) {
                ch.config().setAutoRead(true);
            }
            session.fireWritable();
        }
        super.channelWritabilityChanged(ctx);
    }

    private static long pendingBytes(Channel ch) {
        ChannelOutboundBuffer buffer = ch.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, FrameDecoder.unwrap(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        session.discardWaiting();
        try {
            handler.sessionClosed(session, failure);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed on closing {}", session, e);
        }
        super.channelInactive(ctx);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
            LOG.debug("closing {}: {}", session, cause.toString());
        }
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }
}
