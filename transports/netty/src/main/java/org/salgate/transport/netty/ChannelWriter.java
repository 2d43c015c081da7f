package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;

/**
 * Drains a connection's {@link OutboundQueue} into its channel on the event loop, one flush per
 * drain. Netty's writability is the backpressure: a drain stops at the high-water mark and resumes
 * at {@code channelWritabilityChanged}. A batch stays counted in the queue (and the memory budget)
 * until Netty reports it written; a failed write {@linkplain #fail fails} the connection.
 */
public final class ChannelWriter extends ChannelInboundHandlerAdapter {

    /** How a channel carries encoded messages. Runs on the channel's event loop. */
    public interface Carrier {

        /** Writes the batch's messages, in order, without flushing; returns the last write's future. */
        ChannelFuture write(Channel channel, OutboundQueue.Batch<byte[]> batch);

        /** What is written and flushed after the last batch before the channel closes. */
        Object farewell();
    }

    /** A byte stream: each batch framed by {@link Framing#write} into one pooled direct buffer. */
    public static final Carrier LENGTH_PREFIXED = new Carrier() {
        @Override
        public ChannelFuture write(Channel channel, OutboundQueue.Batch<byte[]> batch) {
            int bytes = Math.toIntExact(batch.bytes());
            ByteBuf buffer = channel.alloc().directBuffer(bytes, bytes);
            Framing.write(batch.items(), buffer.nioBuffer(0, bytes));
            return channel.write(buffer.writerIndex(bytes));
        }

        @Override
        public Object farewell() {
            return Unpooled.EMPTY_BUFFER; // completes once everything written before it has been flushed
        }
    };

    /** How long a close may wait for what is queued to be written. */
    public static final long CLOSE_GRACE_MILLIS = 2_000;

    private final Channel channel;
    private final OutboundQueue<byte[]> queue;
    private final Carrier carrier;
    private final Runnable drainTask = () -> drain(false);

    /** Joins {@code channel} as its first handler; what waits in {@code queue} is dropped as the channel closes. */
    public ChannelWriter(Channel channel, OutboundQueue<byte[]> queue, Carrier carrier) {
        this.channel = channel;
        this.queue = queue;
        this.carrier = carrier;
        channel.pipeline().addFirst("writer", this);
        channel.closeFuture().addListener(f -> queue.discard());
    }

    /** The queue's wake: schedules a drain on the channel's event loop. */
    public void wake() {
        execute(drainTask);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (channel.isWritable()) {
            drain(false);
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Writes batches while the channel is writable (or {@code all} of them). */
    private void drain(boolean all) {
        while (all || channel.isWritable()) {
            OutboundQueue.Batch<byte[]> batch = queue.next();
            if (batch.isEmpty()) {
                break;
            }
            long bytes = batch.bytes();
            carrier.write(channel, batch).addListener(f -> {
                queue.written(bytes);
                if (!f.isSuccess()) {
                    fail(f.cause());
                }
            });
        }
        channel.flush();
    }

    /** Drops what waits and raises {@code cause} in the pipeline (at once on the event loop), whose last handler closes the channel. */
    public void fail(Throwable cause) {
        queue.discard();
        Runnable raise = () -> {
            if (channel.isOpen()) {
                channel.pipeline().fireExceptionCaught(cause);
            }
        };
        if (channel.eventLoop().inEventLoop()) {
            raise.run();
        } else {
            execute(raise);
        }
    }

    /** Closes the channel once what was queued has been written, or after a grace period. */
    public void closeAfterFlush() {
        queue.close();
        execute(() -> {
            drain(true);
            channel.writeAndFlush(carrier.farewell()).addListener(ChannelFutureListener.CLOSE);
            closeLater(channel);
        });
    }

    /** Closes {@code channel} in {@value #CLOSE_GRACE_MILLIS} ms unless it closed before: for a peer that does not read its last message. */
    public static void closeLater(Channel channel) {
        try {
            var forced = channel.eventLoop().schedule(() -> channel.close(), CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            channel.closeFuture().addListener(f -> forced.cancel(false));
        } catch (RejectedExecutionException e) {
            channel.close(); // the event loop is shutting down
        }
    }

    private void execute(Runnable task) {
        try {
            channel.eventLoop().execute(task);
        } catch (RejectedExecutionException e) {
            channel.close(); // the event loop is shutting down, and the channel with it
        }
    }
}
