package org.salgate.transport;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.salgate.wire.Framing;

/**
 * The outbound path of one connection, the same for every transport and for both sides: encoded
 * messages wait here, counted in framed bytes, until the transport's writer takes them in batches
 * and hands them to its library. (A {@link org.salgate.transport.bridge.BridgeSession} queues
 * messages themselves, counted by their estimated size.) The bytes stay counted until the writer reports them
 * {@linkplain #written written}, so the count covers what the library still holds.
 *
 * <p><b>Writability.</b> The connection turns unwritable once the count reaches the high-water
 * mark and writable again, with the listener run once, when it falls below the low-water mark.
 * Producers that can outrun the peer (streams, events) check {@link #isWritable()} and apply their
 * slow-consumer policy; nothing here drops a frame silently. A frame that would take the count past
 * {@code maxQueuedBytes} is refused ({@link Offer#OVER_LIMIT}): the peer has stopped reading and the
 * transport closes the connection with that reason. A server's queue also draws what it holds from
 * its connection's {@link MemoryBudget.Account}, so that all connections together stay within the
 * server's memory budget; a frame the budget refuses is {@link Offer#OVER_LIMIT} too.
 *
 * <p><b>Draining.</b> The first frame offered while no drain is under way runs the {@code wake}
 * callback (on the offering thread): the transport then takes batches with {@link #next} (on
 * whatever thread suits its library) until it gets an empty one, which ends the drain; the next
 * offer wakes it again. A transport that keeps one write in its library's hands at a time takes
 * the next batch when that write completes; frames offered meanwhile wait and leave merged. Batches
 * are framed into one buffer of up to {@link #BATCH_BYTES} by {@link Framing#write}, the one place
 * the length prefix is written.
 *
 * @param <T> what is queued: encoded messages ({@code byte[]}) on byte-stream transports
 *
 * <p>Thread-safe.
 */
public final class OutboundQueue<T> {

    /** Frames are merged into buffers of up to this many bytes; a larger frame travels alone. */
    public static final int BATCH_BYTES = 64 * 1024;

    /** What became of an offered frame. */
    public enum Offer {
        /** Queued behind those offered before. */
        QUEUED,
        /** The queue is closed: the frame was dropped, as a send on a closed connection is. */
        CLOSED,
        /** Refused: it would take the queued bytes past the limit. The transport closes the connection. */
        OVER_LIMIT
    }

    private static final Runnable NO_LISTENER = () -> { };

    private final Object lock = new Object();
    private final ArrayDeque<T> waiting = new ArrayDeque<>();
    private final ToIntFunction<T> sizeOf;
    private final long highWaterBytes;
    private final long lowWaterBytes;
    private final long maxQueuedBytes;
    private final Runnable wake;
    /** The connection's share of the server's memory budget, or null. */
    private final MemoryBudget.Account budget;
    /** Framed bytes offered and not yet reported written: waiting here or held by the library. */
    private long queuedBytes;
    private boolean draining;
    /** Whether a frame was refused by the memory budget rather than this queue's own limit. */
    private volatile boolean refusedByBudget;
    private boolean closed;
    private volatile boolean unwritable;
    private volatile Runnable writabilityListener = NO_LISTENER;

    /**
     * @param sizeOf the bytes an item counts for
     * @param wake run when a frame arrives while no drain is under way; it must not block (it may
     *     hand the first batch to the library at once, or schedule a drain)
     */
    public OutboundQueue(long highWaterBytes, long lowWaterBytes, long maxQueuedBytes, ToIntFunction<T> sizeOf,
                         Runnable wake) {
        this(highWaterBytes, lowWaterBytes, maxQueuedBytes, sizeOf, null, wake);
    }

    /**
     * As {@link #OutboundQueue(long, long, long, ToIntFunction, Runnable)}, drawing what it holds from
     * {@code budget} (null for none).
     */
    public OutboundQueue(long highWaterBytes, long lowWaterBytes, long maxQueuedBytes, ToIntFunction<T> sizeOf,
                         MemoryBudget.Account budget, Runnable wake) {
        if (lowWaterBytes <= 0 || highWaterBytes < lowWaterBytes || maxQueuedBytes < highWaterBytes) {
            throw new IllegalArgumentException("need 0 < low-water mark <= high-water mark <= max queued bytes, got "
                    + lowWaterBytes + ", " + highWaterBytes + ", " + maxQueuedBytes);
        }
        this.highWaterBytes = highWaterBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.maxQueuedBytes = maxQueuedBytes;
        this.sizeOf = sizeOf;
        this.budget = budget;
        this.wake = wake;
    }

    /** A queue of encoded messages, each counted with its length prefix. */
    public static OutboundQueue<byte[]> framed(long highWaterBytes, long lowWaterBytes, long maxQueuedBytes,
                                               Runnable wake) {
        return new OutboundQueue<>(highWaterBytes, lowWaterBytes, maxQueuedBytes, Framing::frameBytes, wake);
    }

    /** A server session's queue, with the server's bound. */
    public static OutboundQueue<byte[]> forSession(ServerOptions options, Runnable wake) {
        return forSession(options, null, wake);
    }

    /** A server session's queue, with the server's bound, drawing on its connection's {@code budget} (null for none). */
    public static OutboundQueue<byte[]> forSession(ServerOptions options, MemoryBudget.Account budget, Runnable wake) {
        return new OutboundQueue<>(options.writeHighWaterBytes(), options.writeLowWaterBytes(),
                options.maxQueuedBytes(), Framing::frameBytes, budget, wake);
    }

    /** A client connection's queue, with the client's bound. */
    public static OutboundQueue<byte[]> forClient(ClientOptions options, Runnable wake) {
        return framed(options.writeHighWaterBytes(), options.writeLowWaterBytes(), options.maxQueuedBytes(),
                wake);
    }

    /** Queues one item (an encoded message). Never blocks. */
    public Offer offer(T item) {
        long frameBytes = sizeOf.applyAsInt(item);
        boolean wakeWriter;
        synchronized (lock) {
            if (closed) {
                return Offer.CLOSED;
            }
            if (queuedBytes + frameBytes > maxQueuedBytes) {
                return Offer.OVER_LIMIT;
            }
            // Under this queue's lock, so that a concurrent written() cannot give back first; the
            // budget never calls back into a queue while taking.
            if (budget != null && !budget.take(frameBytes)) {
                refusedByBudget = true;
                return Offer.OVER_LIMIT;
            }
            waiting.addLast(item);
            queuedBytes += frameBytes;
            if (queuedBytes >= highWaterBytes) {
                unwritable = true;
            }
            wakeWriter = !draining;
            draining = true;
        }
        if (wakeWriter) {
            wake.run();
        }
        return Offer.QUEUED;
    }

    /**
     * Queues a client's request, failing at once when it cannot be sent: the connection is closed,
     * or the requests queued already reach the limit (the agent is not reading them).
     *
     * @param peer the agent's address, for the message
     */
    public void offerRequest(T item, String peer) throws IOException {
        switch (offer(item)) {
            case QUEUED -> { }
            case CLOSED -> throw new IOException("the connection to " + peer + " is closed");
            case OVER_LIMIT -> throw new IOException("the connection to " + peer + " has " + queuedBytes()
                    + " bytes of requests queued, the most it holds (" + maxQueuedBytes
                    + "); the agent is not reading them");
        }
    }

    /**
     * The next frames to write, in order: as many as fit in {@code maxBytes} framed bytes and
     * {@code maxFrames} frames, and at least one. An empty batch ends the drain.
     */
    public Batch<T> next(int maxFrames, long maxBytes) {
        synchronized (lock) {
            if (waiting.isEmpty()) {
                draining = false;
                return new Batch<>(List.of(), 0);
            }
            List<T> bodies = new ArrayList<>(Math.min(maxFrames, waiting.size()));
            long bytes = 0;
            while (!waiting.isEmpty() && bodies.size() < maxFrames) {
                int next = sizeOf.applyAsInt(waiting.peekFirst());
                if (!bodies.isEmpty() && bytes + next > maxBytes) {
                    break;
                }
                bodies.add(waiting.pollFirst());
                bytes += next;
            }
            return new Batch<>(bodies, bytes);
        }
    }

    /** The next batch of up to {@link #BATCH_BYTES}, for a byte-stream writer. */
    public Batch<T> next() {
        return next(Integer.MAX_VALUE, BATCH_BYTES);
    }

    /** Whether frames wait to be taken (the drain is still under way). */
    public boolean hasWaiting() {
        synchronized (lock) {
            return !waiting.isEmpty();
        }
    }

    /**
     * The transport's library wrote {@code bytes} taken with {@link #next} (or dropped them as the
     * connection closed). Runs the writability listener, on this thread, when that ends an
     * unwritable spell.
     */
    public void written(long bytes) {
        boolean fire;
        synchronized (lock) {
            long before = queuedBytes;
            queuedBytes = Math.max(0, queuedBytes - bytes);
            if (budget != null) {
                budget.give(before - queuedBytes);
            }
            fire = unwritable && queuedBytes < lowWaterBytes;
            if (fire) {
                unwritable = false;
            }
        }
        if (fire) {
            writabilityListener.run();
        }
    }

    /** Whether the queued bytes are below the high-water mark (or have fallen below the low-water mark since). */
    public boolean isWritable() {
        return !unwritable;
    }

    /** Sets the listener run each time the connection turns writable again; replaces an earlier one. */
    public void setWritabilityListener(Runnable listener) {
        writabilityListener = listener == null ? NO_LISTENER : listener;
    }

    /** Framed bytes offered and not yet written. */
    public long queuedBytes() {
        synchronized (lock) {
            return queuedBytes;
        }
    }

    /** Whether a frame was refused ({@link Offer#OVER_LIMIT}) by the server's memory budget, not this queue's limit. */
    public boolean refusedByBudget() {
        return refusedByBudget;
    }

    /** The most bytes that may be queued before a frame is refused. */
    public long maxQueuedBytes() {
        return maxQueuedBytes;
    }

    /** Refuses frames from now on; those queued still drain. */
    public void close() {
        synchronized (lock) {
            closed = true;
        }
    }

    /**
     * Refuses frames from now on and drops those that wait: the connection is gone. Closes its
     * account in the memory budget, if it has one.
     */
    public void discard() {
        synchronized (lock) {
            closed = true;
            long dropped = 0;
            for (T item : waiting) {
                dropped += sizeOf.applyAsInt(item);
            }
            waiting.clear();
            queuedBytes = Math.max(0, queuedBytes - dropped);
        }
        if (budget != null) {
            budget.close();
        }
    }

    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Items taken together, in order.
     *
     * @param items the encoded messages (or messages)
     * @param bytes what they count for: on byte-stream transports their size on the wire, length
     *              prefixes included
     */
    public record Batch<T>(List<T> items, long bytes) {

        public boolean isEmpty() {
            return items.isEmpty();
        }
    }
}
