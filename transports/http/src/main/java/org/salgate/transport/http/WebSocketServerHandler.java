package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Supplier;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket end of a server connection: once the handshake on
 * {@value HttpTransportProvider#WEBSOCKET_PATH} completed, the connection is a {@link WebSocketSession}
 * and each binary message one salgate frame for the {@link ServerHandler}. Until then HTTP requests
 * pass on to the REST handler.
 *
 * <p>Reading stops once the queued outbound bytes pass twice the high-water mark and resumes when
 * the channel is writable again, so a client that sends requests without reading the answers cannot
 * make the server buffer without bound.
 */
final class WebSocketServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketServerHandler.class);

    private final ServerHandler handler;
    private final Supplier<WebSocketSession> sessions;
    private final long stopReadingAboveBytes;
    private WebSocketSession session;
    private Throwable failure;

    /**
     * @param sessions makes the session of a connection whose handshake completed
     */
    WebSocketServerHandler(ServerHandler handler, Supplier<WebSocketSession> sessions, int writeHighWaterBytes) {
        this.handler = handler;
        this.sessions = sessions;
        this.stopReadingAboveBytes = 2L * writeHighWaterBytes;
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
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        if (session != null && !ch.isWritable() && pendingBytes(ch) > stopReadingAboveBytes) {
            ch.config().setAutoRead(false);
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        if (session != null && ch.isWritable()) {
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
