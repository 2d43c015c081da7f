package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;

/**
 * Drains a connection's {@link OutboundQueue} into its Netty channel: one event loop task per
 * drain, each batch copied once into a pooled direct buffer, one flush per task. The queue counts a
 * batch until Netty reports it written, so writability covers what waits in the channel too. A
 * failed write is raised in the pipeline, whose last handler closes the channel with that cause.
 */
final class ChannelWriter {

    /** Batches written before a flush; a drain that has more reschedules itself so the loop stays fair. */
    static final int BATCHES_PER_FLUSH = 16;
    /** How long a close waits for queued frames to drain before closing anyway. */
    static final long CLOSE_FLUSH_GRACE_MILLIS = 2_000;

    private final Channel channel;
    private final OutboundQueue<byte[]> queue;
    private final Runnable drainTask = this::drain;

    ChannelWriter(Channel channel, OutboundQueue<byte[]> queue) {
        this.channel = channel;
        this.queue = queue;
    }

    /** The queue's wake: schedules a drain on the channel's event loop. */
    void wake() {
        try {
            channel.eventLoop().execute(drainTask);
        } catch (RejectedExecutionException e) {
            queue.discard(); // the event loop is shutting down, and the channel with it
        }
    }

    /** Hands the queue's batches to the channel and flushes. Runs on the channel's event loop. */
    void drain() {
        for (int i = 0; i < BATCHES_PER_FLUSH; i++) {
            OutboundQueue.Batch<byte[]> batch = queue.next();
            if (batch.isEmpty()) {
                channel.flush();
                return;
            }
            int bytes = Math.toIntExact(batch.bytes());
            ByteBuf buffer = channel.alloc().directBuffer(bytes, bytes);
            Framing.write(batch.items(), buffer.nioBuffer(0, bytes));
            buffer.writerIndex(bytes);
            channel.write(buffer).addListener(f -> {
                queue.written(bytes);
                if (!f.isSuccess() && channel.isActive()) {
                    channel.pipeline().fireExceptionCaught(f.cause());
                }
            });
        }
        channel.flush();
        channel.eventLoop().execute(drainTask);
    }

    /** Closes the channel once what was queued has been written, or after a grace period. */
    void closeAfterFlush() {
        queue.close();
        if (!channel.isOpen()) {
            return;
        }
        try {
            channel.eventLoop().execute(() -> {
                while (queue.hasWaiting()) {
                    drain();
                }
                // Completes once everything written before it has been flushed.
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            });
            var forced = channel.eventLoop().schedule(() -> {
                channel.close();
            }, CLOSE_FLUSH_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            channel.closeFuture().addListener(f -> forced.cancel(false));
        } catch (RejectedExecutionException e) {
            channel.close(); // the server is stopping; its sessions close anyway
        }
    }
}
