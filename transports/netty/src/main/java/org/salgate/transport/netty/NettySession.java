package org.salgate.transport.netty;

import io.netty.channel.Channel;
import java.net.SocketAddress;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerOptions;

/**
 * A server session on one Netty channel, whose outbound queue a {@link ChannelWriter} drains as
 * its {@link ChannelWriter.Carrier} writes frames (length-prefixed here, WebSocket messages on http).
 */
public final class NettySession extends QueuedSession {

    private final Channel channel;
    private final ChannelWriter writer;

    /** A session drawing on the server's {@code budget} (null for none). */
    public NettySession(long id, Channel channel, ServerOptions options, MemoryBudget budget,
                        ChannelWriter.Carrier carrier) {
        super(id, options, budget);
        this.channel = channel;
        this.writer = new ChannelWriter(channel, queue(), carrier);
    }

    @Override
    public String remoteAddress() {
        SocketAddress address = channel.remoteAddress();
        return address == null ? "unknown" : address.toString();
    }

    @Override
    protected void startWriting() {
        writer.wake();
    }

    /** Closes now through the writer's {@link ChannelWriter#fail}, which reports {@code cause}. */
    @Override
    protected void abort(Throwable cause) {
        writer.fail(cause);
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    /** Closes once every frame sent before has been written, or after a grace period. */
    @Override
    public void close() {
        writer.closeAfterFlush();
    }

    /** The channel closed: frames still waiting are dropped. */
    public void discardWaiting() {
        queue().discard();
    }
}
