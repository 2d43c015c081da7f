package org.salgate.transport.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
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
 * A server session on one Netty channel. Messages are encoded and framed on the caller's thread
 * and handed to the channel in batches by a {@link FrameBatcher}; writability is the channel's,
 * with the server's water marks, counting the frames that wait in the batcher.
 */
final class NettySession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(NettySession.class);

    /** How long {@link #close()} waits for queued frames to drain before closing anyway. */
    static final long CLOSE_FLUSH_GRACE_MILLIS = 2_000;

    private final long id;
    private final Channel channel;
    private final ConnectionCodec codec;
    private final FrameBatcher batcher;
    private volatile Runnable writabilityListener;

    NettySession(long id, Channel channel, ConnectionCodec codec, int writeHighWaterBytes) {
        this.id = id;
        this.channel = channel;
        this.codec = codec;
        this.batcher = new FrameBatcher(channel, writeHighWaterBytes, this::fireWritable);
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
        batcher.add(codec.encode(message));
    }

    @Override
    public boolean isWritable() {
        return batcher.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    /** Closes once every frame sent before has been written, or after a grace period. */
    @Override
    public void close() {
        if (!channel.isOpen()) {
            return;
        }
        try {
            channel.eventLoop().execute(() -> {
                // The batcher's frames first; the empty write completes once they have been flushed.
                batcher.drain();
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            });
            ScheduledFuture<?> forced = channel.eventLoop().schedule(() -> {
                channel.close();
            }, CLOSE_FLUSH_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            channel.closeFuture().addListener(f -> forced.cancel(false));
        } catch (RejectedExecutionException e) {
            channel.close(); // the server is stopping; its sessions close anyway
        }
    }

    /** The channel closed: frames still waiting to be handed to it are released. */
    void discardWaiting() {
        batcher.discard();
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
