package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.AcceptBackoff;

/**
 * Paces accepting when it fails (out of descriptors, most often), in a listening channel's
 * pipeline ahead of its acceptor: left alone, Netty pauses a second after each failed accept and
 * logs it with its stack trace; this stops reading the listening channel for the
 * {@link AcceptBackoff}'s pause instead, which logs a run of failures once. One per listening channel.
 */
public final class AcceptPacer extends ChannelInboundHandlerAdapter {

    private final AcceptBackoff backoff;

    /** @param server the listening server, for the log, such as {@code netty server 127.0.0.1:7431} */
    public AcceptPacer(String server) {
        this.backoff = new AcceptBackoff(server);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object child) {
        backoff.accepted();
        ctx.fireChannelRead(child);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        Channel listening = ctx.channel();
        listening.config().setAutoRead(false);
        listening.eventLoop().schedule(() -> listening.config().setAutoRead(true), backoff.nextPause(cause),
                TimeUnit.MILLISECONDS);
    }
}
