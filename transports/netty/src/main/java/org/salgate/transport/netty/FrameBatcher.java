package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.wire.Framing;

/**
 * Frames the messages a server session sends and hands them to its channel in batches, one event
 * loop task and one flush per batch.
 *
 * <p>Streams push small frames from their own threads. Written one by one, each frame costs an
 * event loop task, a promise, a header buffer from the length prepender and an entry in the
 * channel's outbound buffer, and the socket gets a gathering write of thousands of tiny buffers.
 * Here a frame is copied once, with its length, into a pooled direct buffer shared with the frames
 * sent around it (a large frame gets a buffer of its own size), and the first frame of a batch
 * schedules the task that writes them all; frames sent before that task runs join the batch.
 *
 * <p>The bytes waiting here count towards the session's high-water mark: {@link #isWritable} is
 * false while they reach it, and the task that hands them on runs the writability listener if it
 * said so meanwhile (the channel runs it when its own outbound bytes drain).
 */
final class FrameBatcher {

    /** Frames share a buffer of up to this size (bytes); a larger frame gets its own. */
    static final int SHARED_BUFFER_BYTES = 64 * 1024;
    private static final int FIRST_BUFFER_BYTES = 1024;

    private final Channel channel;
    private final int highWaterBytes;
    private final Runnable writable;
    private final Runnable drainTask = this::drain;
    private final AtomicBoolean heldBack = new AtomicBoolean();
    private ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
    /** The last buffer in {@link #waiting}, while frames may still be added to it. */
    private ByteBuf shared;
    private boolean scheduled;
    private boolean discarded;
    private volatile long waitingBytes;

    /**
     * @param writable run on the event loop when frames held back by the high-water mark left
     */
    FrameBatcher(Channel channel, int highWaterBytes, Runnable writable) {
        this.channel = channel;
        this.highWaterBytes = highWaterBytes;
        this.writable = writable;
    }

    /**
     * Frames a message body and queues it behind those sent before.
     *
     * @return false when the channel is gone and the frame was dropped
     */
    boolean add(byte[] body) {
        int frameBytes = Framing.LENGTH_FIELD_BYTES + body.length;
        boolean schedule;
        synchronized (this) {
            if (discarded) {
                return false;
            }
            ByteBuf target = shared;
            if (target == null || target.maxWritableBytes() < frameBytes) {
                target = newBuffer(frameBytes);
                waiting.addLast(target);
                shared = frameBytes < SHARED_BUFFER_BYTES ? target : null;
            }
            target.writeInt(body.length).writeBytes(body);
            waitingBytes += frameBytes;
            schedule = !scheduled;
            scheduled = true;
        }
        if (schedule) {
            try {
                channel.eventLoop().execute(drainTask);
            } catch (RejectedExecutionException e) {
                discard(); // the event loop is shutting down, and the channel with it
                return false;
            }
        }
        return true;
    }

    /** Bytes framed here and not yet handed to the channel. */
    long waitingBytes() {
        return waitingBytes;
    }

    /**
     * Whether the channel can take more, counting what waits here. Once it said no because of what
     * waits here, the next hand-over runs the writability listener; the flag is set before the
     * waiting bytes are read again, so a hand-over racing with this check is seen by one side.
     */
    boolean isWritable() {
        if (!channel.isWritable()) {
            return false;
        }
        if (waitingBytes < highWaterBytes) {
            return true;
        }
        heldBack.set(true);
        return waitingBytes < highWaterBytes;
    }

    /** Hands everything waiting to the channel with one flush. Runs on the channel's event loop. */
    void drain() {
        ArrayDeque<ByteBuf> batch;
        long bytes;
        synchronized (this) {
            scheduled = false;
            if (waiting.isEmpty()) {
                return;
            }
            batch = waiting;
            waiting = new ArrayDeque<>();
            shared = null;
            bytes = waitingBytes;
        }
        for (ByteBuf buffer : batch) {
            channel.write(buffer);
        }
        channel.flush();
        synchronized (this) {
            waitingBytes -= bytes; // after the channel counts them, so that no check misses them
        }
        if (heldBack.getAndSet(false) && channel.isWritable()) {
            writable.run();
        }
    }

    /** The channel is gone: releases what waits and drops what is sent from now on. */
    void discard() {
        synchronized (this) {
            discarded = true;
            for (ByteBuf buffer : waiting) {
                buffer.release();
            }
            waiting.clear();
            shared = null;
            waitingBytes = 0;
        }
    }

    private ByteBuf newBuffer(int frameBytes) {
        if (frameBytes >= SHARED_BUFFER_BYTES) {
            return channel.alloc().directBuffer(frameBytes, frameBytes);
        }
        return channel.alloc().directBuffer(Math.max(FIRST_BUFFER_BYTES, frameBytes), SHARED_BUFFER_BYTES);
    }
}
