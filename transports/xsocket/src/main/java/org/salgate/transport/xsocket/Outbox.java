package org.salgate.transport.xsocket;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames a session sends while its previous write is still on its way, handed to xSocket
 * together as one write once that write has left. A run of small frames becomes one buffer: each
 * buffer xSocket holds costs it a queue entry, a write-completion lookup and, queued one by one,
 * a selector wake-up, and its queues copy their arrays on every append. Large frames keep their
 * own buffer and are not copied.
 *
 * <p>Not thread-safe: the session guards it with its write lock. {@link #bytes} may be read
 * without it.
 */
final class Outbox {

    /** Frames up to this size are copied into a shared buffer; tens of bytes is the common case. */
    static final int COPY_LIMIT_BYTES = 4 * 1024;
    /** One merged buffer holds at most this much, so it stays an ordinary (non-humongous) allocation. */
    static final int MERGED_MAX_BYTES = 256 * 1024;

    private static final ByteBuffer[] NONE = new ByteBuffer[0];

    private final List<ByteBuffer> frames = new ArrayList<>();
    private volatile long bytes;

    void add(ByteBuffer frame) {
        frames.add(frame);
        bytes += frame.remaining();
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    /** Bytes held, counted in the session's pending writes. */
    long bytes() {
        return bytes;
    }

    /** Everything held, in order, as few buffers as possible; the outbox is empty afterwards. */
    ByteBuffer[] take() {
        if (frames.isEmpty()) {
            return NONE;
        }
        List<ByteBuffer> out = new ArrayList<>();
        int n = frames.size();
        int i = 0;
        while (i < n) {
            int end = i;
            int merged = 0;
            while (end < n && frames.get(end).remaining() <= COPY_LIMIT_BYTES
                    && merged + frames.get(end).remaining() <= MERGED_MAX_BYTES) {
                merged += frames.get(end).remaining();
                end++;
            }
            if (end - i > 1) {
                out.add(merge(i, end, merged));
                i = end;
            } else {
                out.add(frames.get(i));
                i++;
            }
        }
        frames.clear();
        bytes = 0;
        return out.toArray(NONE);
    }

    /** Drops everything held: the connection is gone. */
    void clear() {
        frames.clear();
        bytes = 0;
    }

    private ByteBuffer merge(int from, int to, int size) {
        ByteBuffer merged = ByteBuffer.allocate(size);
        for (int i = from; i < to; i++) {
            merged.put(frames.get(i));
        }
        return merged.flip();
    }
}
