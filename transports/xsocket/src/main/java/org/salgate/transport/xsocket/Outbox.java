package org.salgate.transport.xsocket;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The frames a connection sends while its previous write is still on its way, handed to xSocket
 * one buffer at a time once that write has left (see {@link SerialWriter} for why one). A run of
 * small frames becomes one buffer: each buffer xSocket holds costs it a queue entry, a
 * write-completion lookup and a selector wake-up. Large frames keep their own buffer and are not
 * copied.
 *
 * <p>The bytes of a buffer taken with {@link #next} or {@link #takeAll} stay counted until the
 * writer reports them {@link #handedOver} to xSocket, which counts them from then on: the pending
 * bytes may be counted twice for a moment, never missed.
 *
 * <p>Not thread-safe: the writer guards it with its lock. {@link #bytes} may be read without it.
 */
final class Outbox {

    /** Frames up to this size are copied into a shared buffer; tens of bytes is the common case. */
    static final int COPY_LIMIT_BYTES = 4 * 1024;
    /** One merged buffer holds at most this much, so it stays an ordinary (non-humongous) allocation. */
    static final int MERGED_MAX_BYTES = 256 * 1024;

    private final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
    private volatile long bytes;

    void add(ByteBuffer frame) {
        frames.addLast(frame);
        bytes += frame.remaining();
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    /** Bytes held, counted in the connection's pending writes. */
    long bytes() {
        return bytes;
    }

    /** Stops counting bytes taken out earlier: xSocket holds them now. */
    void handedOver(int taken) {
        bytes -= taken;
    }

    /**
     * The next buffer to write, in order: a large frame as it is, or the run of small frames at the
     * head merged into one buffer of at most {@link #MERGED_MAX_BYTES}; null when empty.
     */
    ByteBuffer next() {
        if (frames.isEmpty()) {
            return null;
        }
        int size = 0;
        int count = 0;
        for (ByteBuffer frame : frames) {
            int n = frame.remaining();
            if (n > COPY_LIMIT_BYTES || size + n > MERGED_MAX_BYTES) {
                break;
            }
            size += n;
            count++;
        }
        if (count <= 1) {
            return frames.removeFirst();
        }
        ByteBuffer merged = ByteBuffer.allocate(size);
        for (int i = 0; i < count; i++) {
            merged.put(frames.removeFirst());
        }
        return merged.flip();
    }

    /** Everything held, in order, as one buffer (null when empty); the outbox is empty afterwards. */
    ByteBuffer takeAll() {
        if (frames.size() <= 1) {
            return frames.isEmpty() ? null : frames.removeFirst();
        }
        int size = 0;
        for (ByteBuffer frame : frames) {
            size = Math.addExact(size, frame.remaining());
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        while (!frames.isEmpty()) {
            all.put(frames.removeFirst());
        }
        return all.flip();
    }

    /** Drops everything held: the connection is gone. */
    void clear() {
        frames.clear();
        bytes = 0;
    }
}
