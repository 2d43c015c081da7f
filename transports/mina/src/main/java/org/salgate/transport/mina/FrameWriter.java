package org.salgate.transport.mina;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;

/**
 * Frames the messages of one MINA session and writes them in as few buffers as the traffic allows.
 *
 * <p>MINA turns every {@code IoSession.write} into a write request, a filter chain pass and, as it
 * writes each buffer with its own channel write, a syscall. So at most one batch of this writer's
 * buffers is in MINA's write queue at a time: a frame sent while none is there is written at once
 * in its own buffer (a lone answer never waits), and frames sent while a batch is being written wait
 * here until MINA reports the batch sent ({@link #onSent}), then leave merged into buffers of up to
 * {@link #BATCH_BYTES}. MINA reports a buffer sent on its I/O thread in the middle of the flush that
 * wrote it, so the next batch goes out in that same flush. Each frame's bytes are copied once, from
 * its encoded body into the buffer that is written; a frame larger than a batch gets a buffer of its
 * own size.
 */
final class FrameWriter {

    /** Frames are merged into buffers up to this size (bytes), a few socket buffers' worth per write. */
    static final int BATCH_BYTES = 64 * 1024;

    private final IoSession io;
    private final ConnectionCodec codec;
    private final ArrayDeque<byte[]> waiting = new ArrayDeque<>();
    /** Framed bytes not yet in MINA's write queue; lowered only after they are, so no count misses them. */
    private final AtomicLong waitingBytes = new AtomicLong();
    /** Buffers written to MINA and not yet reported sent. */
    private int unsent;
    private boolean closing;
    private boolean closeWhenWritten;

    FrameWriter(IoSession io, ConnectionCodec codec) {
        this.io = io;
        this.codec = codec;
    }

    /**
     * Frames a message and writes it, or queues it behind the batch being written.
     *
     * @return false if the session is closing and the message was dropped
     */
    boolean write(Message message) {
        byte[] body = codec.encode(message);
        synchronized (this) {
            if (closing) {
                return false;
            }
            if (unsent > 0) {
                waiting.addLast(body);
                waitingBytes.addAndGet(frameBytes(body));
                return true;
            }
            unsent = 1;
        }
        // Nothing of ours is in MINA's queue and anything sent from now on waits for this buffer's
        // messageSent, so writing outside the lock keeps the order.
        IoBuffer buffer = IoBuffer.allocate(frameBytes(body), false);
        put(buffer, body);
        io.write(buffer.flip());
        return true;
    }

    /** MINA wrote one of this writer's buffers; once the whole batch is written, writes what waited. */
    void onSent() {
        List<IoBuffer> batch;
        long drained;
        synchronized (this) {
            if (unsent == 0 || --unsent > 0) {
                return;
            }
            if (waiting.isEmpty()) {
                if (closeWhenWritten) {
                    io.closeOnFlush();
                }
                return;
            }
            drained = waitingBytes.get();
            batch = takeWaiting();
            unsent = batch.size();
        }
        for (IoBuffer buffer : batch) {
            io.write(buffer);
        }
        waitingBytes.addAndGet(-drained);
    }

    /** Framed bytes that wait here for MINA's write queue. */
    long waitingBytes() {
        return waitingBytes.get();
    }

    /** Closes the session once every frame accepted so far is written; frames sent later are dropped. */
    void closeWhenWritten() {
        synchronized (this) {
            closing = true;
            if (unsent > 0) {
                closeWhenWritten = true;
                return;
            }
        }
        io.closeOnFlush();
    }

    /** The session closed: drops what waits and refuses more. */
    void discard() {
        synchronized (this) {
            closing = true;
            long dropped = 0;
            for (byte[] body : waiting) {
                dropped += frameBytes(body);
            }
            waiting.clear();
            waitingBytes.addAndGet(-dropped);
        }
    }

    /** Moves every waiting frame into buffers of up to {@link #BATCH_BYTES}, or one frame each if larger. */
    private List<IoBuffer> takeWaiting() {
        List<IoBuffer> buffers = new ArrayList<>();
        while (!waiting.isEmpty()) {
            int size = 0;
            int frames = 0;
            for (byte[] body : waiting) {
                int next = frameBytes(body);
                if (frames > 0 && size + next > BATCH_BYTES) {
                    break;
                }
                size += next;
                frames++;
            }
            IoBuffer buffer = IoBuffer.allocate(size, false);
            for (int i = 0; i < frames; i++) {
                put(buffer, waiting.pollFirst());
            }
            buffers.add(buffer.flip());
        }
        return buffers;
    }

    private static int frameBytes(byte[] body) {
        return Framing.LENGTH_FIELD_BYTES + body.length;
    }

    private static void put(IoBuffer buffer, byte[] body) {
        buffer.putInt(body.length);
        buffer.put(body);
    }
}
