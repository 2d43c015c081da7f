package org.salgate.transport.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.net.SocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import io.netty.util.concurrent.ScheduledFuture;
import org.salgate.transport.Session;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session on one Netty channel. Messages are encoded on the caller's thread and queued on
 * the channel; writability is the channel's, with the server's water marks.
 */
final class NettySession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(NettySession.class);

    /** How long {@link #close()} waits for queued frames to drain before closing anyway. */
    static final long CLOSE_FLUSH_GRACE_MILLIS = 2_000;

    private final long id;
    private final Channel channel;
    private final ConnectionCodec codec;
    private volatile Runnable writabilityListener;

    NettySession(long id, Channel channel, ConnectionCodec codec) {
        this.id = id;
        this.channel = channel;
        this.codec = codec;
    }

    ConnectionCodec codec() {
        return codec;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        SocketAddress address = channel.remoteAddress();
        return address == null ? "unknown" : address.toString();
    }

    @Override
    public void send(Message message) {
        if (!channel.isActive()) {
            return;
        }
        channel.writeAndFlush(Frames.encode(codec, message));
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        if (!channel.isOpen()) {
            return;
        }
        // An empty write from the first handler skips the length prepender; it completes once every
        // frame queued before it has been flushed.
        ChannelHandlerContext first = channel.pipeline().firstContext();
        if (first == null) {
            channel.close();
            return;
        }
        first.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        try {
            ScheduledFuture<?> forced = channel.eventLoop().schedule(() -> {
                channel.close();
            }, CLOSE_FLUSH_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            channel.closeFuture().addListener(f -> forced.cancel(false));
        } catch (RejectedExecutionException e) {
            channel.close(); // the server is stopping; its sessions close anyway
        }
    }

    /** Called on the channel's event loop when the channel became writable again. */
    void fireWritable() {
        Runnable listener = writabilityListener;
        if (listener == null) {
            return;
        }
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("the writability listener of session {} failed", id, e);
        }
    }

    @Override
    public String toString() {
        return "session " + id + " (" + remoteAddress() + ")";
    }
}
