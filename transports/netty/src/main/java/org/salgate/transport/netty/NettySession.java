package org.salgate.transport.netty;

import io.netty.channel.Channel;
import java.net.SocketAddress;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerOptions;
import org.salgate.wire.MemoryBudget;

/**
 * A server session on one Netty channel, whose outbound queue a {@link ChannelWriter} drains: on
 * the netty transport as length-prefixed frames, on others (a WebSocket) as their {@link
 * ChannelWriter.Carrier} writes them.
 */
public final class NettySession extends QueuedSession {

    private final Channel channel;
    private final ChannelWriter writer;

    NettySession(long id, Channel channel, ServerOptions options, MemoryBudget budget) {
        this(id, channel, options, budget, ChannelWriter.LENGTH_PREFIXED);
    }

    /** A session drawing on the server's {@code budget} (null for none), written as {@code carrier} writes frames. */
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

    @Override
    protected void abort(Throwable cause) {
        queue().discard();
        channel.pipeline().fireExceptionCaught(cause);
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
