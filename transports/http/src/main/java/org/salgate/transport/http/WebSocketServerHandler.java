package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.util.function.Supplier;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.netty.ChannelServer.ChannelSession;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket end of a server connection: once the handshake completed, the connection is a
 * session (its queue written as {@link WebSocketFrames}) and each binary message a frame for the
 * {@link ServerHandler}. The {@link WebSocketIntake} counts what it was sent on the session's
 * account, and hears when the hello carries admitted credentials.
 */
final class WebSocketServerHandler extends WebSocketEnd {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketServerHandler.class);

    private final ServerHandler handler;
    private final Supplier<ChannelSession> sessions;
    private final WebSocketIntake intake;
    private ChannelSession session;
    private boolean greeted;

    WebSocketServerHandler(ServerHandler handler, Supplier<ChannelSession> sessions, WebSocketIntake intake) {
        this.handler = handler;
        this.sessions = sessions;
        this.intake = intake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete && session == null) {
            session = sessions.get();
            intake.start(ctx.pipeline(), session, cause -> {
                if (failure == null) {
                    failure = cause;
                }
            });
            HandlerCalls.run(() -> handler.sessionOpened(session), "opening", session);
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    protected ConnectionCodec codec() {
        return session == null ? null : session.codec();
    }

    @Override
    protected void received(ChannelHandlerContext ctx, Message message) {
        if (!greeted) {
            greeted = true;
            if (message instanceof Hello hello && admits(hello.credentials())) {
                intake.authenticated();
            }
        }
        HandlerCalls.run(() -> handler.messageReceived(session, message), "a message", session);
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
    protected void closed(ChannelHandlerContext ctx) {
        if (session != null) {
            HandlerCalls.run(() -> handler.sessionClosed(session, failure), "closing", session);
        }
    }
}
