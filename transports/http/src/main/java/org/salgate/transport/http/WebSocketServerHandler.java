package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Supplier;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.netty.ChannelServer.ChannelSession;
import org.salgate.wire.CodecException;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket end of a server connection: once the handshake completed, the connection is a
 * session (its queue written as {@link WebSocketFrames}) and each binary message a frame for the
 * {@link ServerHandler}; until then HTTP requests pass on. The {@link WebSocketIntake} counts what
 * it was sent on the session's account, and hears when the hello carries admitted credentials.
 */
final class WebSocketServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketServerHandler.class);

    private final ServerHandler handler;
    private final Supplier<ChannelSession> sessions;
    private final ConnectionMemory memory;
    private final WebSocketIntake intake;
    private ChannelSession session;
    private boolean greeted;
    private Throwable failure;

    WebSocketServerHandler(ServerHandler handler, Supplier<ChannelSession> sessions, ConnectionMemory memory,
                           WebSocketIntake intake) {
        this.handler = handler;
        this.sessions = sessions;
        this.memory = memory;
        this.intake = intake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete && session == null) {
            session = sessions.get();
            memory.handOver(session.budget());
            intake.start(ctx.pipeline(), cause -> {
                if (failure == null) {
                    failure = cause;
                }
            });
            HandlerCalls.run(() -> handler.sessionOpened(session), "opening", session);
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
            Message message;
            try {
                message = WebSocketFrames.decode(session.codec(), frame);
            } catch (CodecException e) {
                fail(ctx, e);
                return;
            }
            if (!greeted) {
                greeted = true;
                if (message instanceof Hello hello && admits(hello.credentials())) {
                    intake.authenticated();
                }
            }
            HandlerCalls.run(() -> handler.messageReceived(session, message), "a message", session);
        } finally {
            ReferenceCountUtil.release(frame);
        }
    }

    private boolean admits(String credentials) {
        try {
            return handler.admits(credentials);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed checking the credentials of {}", session, e);
            return false;
        }
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
            HandlerCalls.run(() -> handler.sessionClosed(session, failure), "closing", session);
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
