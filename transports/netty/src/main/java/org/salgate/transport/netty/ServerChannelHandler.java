package org.salgate.transport.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import org.salgate.transport.FrameReader;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a server channel: hands messages to the {@link ServerHandler} and reports
 * the session's life. Outbound bytes are bounded by the session's queue, which closes a session
 * whose client stops reading, so reading never has to stop here.
 */
final class ServerChannelHandler extends FrameHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ServerChannelHandler.class);

    private final ServerHandler handler;
    private final NettySession session;

    ServerChannelHandler(ServerHandler handler, NettySession session) {
        super(session.frameReader());
        this.handler = handler;
        this.session = session;
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
    void deliver(Message message) {
        try {
            handler.messageReceived(session, message);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed on a message of {}", session, e);
        }
    }

    /** A browser (or curl) that spoke HTTP to this port is answered before the close. */
    @Override
    void close(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Framing.HttpRequestException) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(Framing.httpBadRequest())).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        session.discardWaiting();
        releaseReader();
        if (failure() != null) {
            LOG.debug("closed {}: {}", session, failure().toString());
        }
        try {
            handler.sessionClosed(session, failure());
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed on closing {}", session, e);
        }
        super.channelInactive(ctx);
    }
}
