package org.salgate.transport.netty;

import io.netty.channel.Channel;
import java.net.SocketAddress;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerOptions;

/**
 * A server session on one Netty channel, whose outbound queue a {@link ChannelWriter} drains: on
 * the netty transport as length-prefixed frames, on others (a WebSocket) as their {@link
 * ChannelWriter.Carrier} writes them.
 */
public final class NettySession extends QueuedSession {

    private final Channel channel;
    private final ChannelWriter writer;

    NettySession(long id, Channel channel, ServerOptions options) {
        this(id, channel, options, ChannelWriter.LENGTH_PREFIXED);
    }

    public NettySession(long id, Channel channel, ServerOptions options, ChannelWriter.Carrier carrier) {
        super(id, options);
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
