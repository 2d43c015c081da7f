package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Supplier;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.netty.NettySession;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket end of a server connection: once the handshake on
 * {@value HttpTransportProvider#WEBSOCKET_PATH} completed, the connection is a session (the netty
 * transport's, its queue written as {@link WebSocketFrames}) and each binary message one salgate
 * frame for the {@link ServerHandler}. Until then HTTP requests pass on to the REST handler.
 * Outbound bytes are bounded by the session's queue, which closes a session whose client stops
 * reading, so reading never has to stop here.
 */
final class WebSocketServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketServerHandler.class);

    private final ServerHandler handler;
    private final Supplier<NettySession> sessions;
    private NettySession session;
    private Throwable failure;

    /**
     * @param sessions makes the session of a connection whose handshake completed
     */
    WebSocketServerHandler(ServerHandler handler, Supplier<NettySession> sessions) {
        this.handler = handler;
        this.sessions = sessions;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete && session == null) {
            HeaderDeadline deadline = ctx.pipeline().get(HeaderDeadline.class);
            if (deadline != null) {
                deadline.upgraded();
            }
            session = sessions.get();
            try {
                handler.sessionOpened(session);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on opening {}", session, e);
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof WebSocketFrame frame)) {
            ctx.fireChannelRead(msg); // an HTTP request for the REST handler
            return;
        }
        try {
            if (failure != null || session == null) {
                return;
            }
            if (!(frame instanceof BinaryWebSocketFrame)) {
                fail(ctx, new CodecException("salgate frames travel as binary WebSocket messages, got a "
                        + frame.getClass().getSimpleName()));
                return;
            }
            Message message;
            try {
                message = session.codec().decode(bytes(frame.content()));
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
            ReferenceCountUtil.release(frame);
        }
    }

    /** Copies a message out: decoded values may keep the array while Netty reuses its buffers. */
    static byte[] bytes(ByteBuf content) {
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        return bytes;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (session == null) {
            LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
            return;
        }
        fail(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (session != null) {
            session.discardWaiting();
            try {
                handler.sessionClosed(session, failure);
            } catch (RuntimeException e) {
                LOG.warn("the server handler failed on closing {}", session, e);
            }
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
