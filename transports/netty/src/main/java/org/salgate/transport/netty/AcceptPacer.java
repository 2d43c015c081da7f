package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.AcceptBackoff;

/**
 * The handler of a server channel that paces accepting when it fails (out of descriptors, most
 * often): Netty reports a failed accept as an {@link IOException} on the server channel and, left
 * alone, pauses a second and logs each failure with its stack trace. This stops reading the server
 * channel for the {@link AcceptBackoff}'s pause instead, which logs a run of failures once.
 */
final class AcceptPacer extends ChannelInboundHandlerAdapter {

    private final AcceptBackoff backoff;

    /** Paces the accept loop of {@code server}, named in the log. */
    AcceptPacer(String server) {
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
        Channel server = ctx.channel();
        server.config().setAutoRead(false);
        server.eventLoop().schedule(() -> server.config().setAutoRead(true), backoff.nextPause(cause),
                TimeUnit.MILLISECONDS);
    }
}
