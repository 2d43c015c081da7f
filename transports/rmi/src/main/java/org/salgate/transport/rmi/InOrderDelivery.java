package org.salgate.transport.rmi;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Puts a client's incoming frames back in the agent's order. Answers come back on the threads that
 * made the calls and pushes on RMI's threads, so they can overtake each other; each carries its
 * sequence number, and frames are handed on one at a time, in that order.
 *
 * <p>Who hands a frame on: a push waits until its frames have been handed on (which paces the
 * agent), so its thread hands on its own frames itself. A frame nobody waits for (an answer, or
 * the session's end) is handed on by whichever thread gets to it first: the one that brought it
 * or the one that handed on the frame before it. So the application thread that made a call hands
 * on at most answers and the end, never pushed frames: a handler that blocks on a pushed frame
 * (a slow client) holds up only the push, never the caller's {@code send}.
 *
 * <p>A frame that arrives on the thread currently handing frames on (a handler that sends from
 * inside its callback) is handed on after the current one instead of deadlocking.
 */
final class InOrderDelivery {

    /** One frame to hand on (bytes from {@code offset}), or the session's end when {@code bytes} is null. */
    record Item(byte[] bytes, int offset, String endReason) {
        static Item frame(byte[] bytes, int offset) {
            return new Item(bytes, offset, null);
        }

        static Item end(String reason) {
            return new Item(null, 0, reason);
        }
    }

    /** More frames than this ahead of a gap means the agent broke the protocol. */
    static final int MAX_OUT_OF_ORDER = 4 * RmiSession.MAX_BATCH_FRAMES + 4096;

    /** An item waiting its turn; {@code owner} is the push waiting for it, or null when nobody waits. */
    private record Waiting(Item item, Object owner) {}

    private final Object lock = new Object();
    private final Map<Long, Waiting> early = new HashMap<>();
    private final Consumer<Item> sink;
    private final Consumer<String> protocolError;
    private long next;
    private boolean handing;
    private boolean closed;
    private Runnable closeAction;

    /**
     * @param sink hands one item on; called by one thread at a time, in sequence order
     * @param protocolError told when the sequence is broken beyond repair
     */
    InOrderDelivery(Consumer<Item> sink, Consumer<String> protocolError) {
        this.sink = sink;
        this.protocolError = protocolError;
    }

    /**
     * Takes {@code items[i]} numbered {@code sequences[i]} and hands on what is its turn. With
     * {@code await} (a push) this thread hands on these items itself, and returns only once they
     * have been handed on or the delivery closed; without it (an answer, the end) it returns as
     * soon as nothing nobody waits for is next.
     */
    void arrive(long[] sequences, Item[] items, boolean await) {
        Object owner = await ? new Object() : null;
        String error = null;
        long last = Long.MIN_VALUE; // the highest number among these items
        synchronized (lock) {
            if (closed) {
                return;
            }
            for (int i = 0; i < sequences.length && error == null; i++) {
                long s = sequences[i];
                if (s < next || early.containsKey(s)) {
                    error = "the agent sent frame " + s + " twice";
                } else if (early.size() >= MAX_OUT_OF_ORDER) {
                    error = "the agent sent frames out of order beyond repair (waiting for " + next + ")";
                } else {
                    early.put(s, new Waiting(items[i], owner));
                    last = Math.max(last, s);
                }
            }
            lock.notifyAll();
        }
        if (error != null) {
            protocolError.accept(error);
            return;
        }
        try {
            handOnInTurn(owner, last);
        } finally {
            if (owner != null) {
                disown(owner, last);
            }
        }
    }

    /**
     * Hands on, one at a time, every item that is next and is this thread's to hand on: those of
     * {@code owner} and those nobody waits for. With an owner, waits for its items' turn until the
     * item numbered {@code last} has been handed on.
     */
    private void handOnInTurn(Object owner, long last) {
        while (true) {
            Item current;
            synchronized (lock) {
                while (true) {
                    if (closed) {
                        return;
                    }
                    Waiting candidate = handing ? null : early.get(next);
                    if (candidate != null && (candidate.owner() == null || candidate.owner() == owner)) {
                        early.remove(next);
                        handing = true;
                        current = candidate.item();
                        break;
                    }
                    if (owner == null || next > last) {
                        return;
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            try {
                sink.accept(current);
            } finally {
                Runnable action;
                synchronized (lock) {
                    next++;
                    handing = false;
                    action = closeAction;
                    closeAction = null;
                    lock.notifyAll();
                }
                if (action != null) { // closed while this item was handed on
                    action.run();
                }
            }
        }
    }

    /**
     * A push that leaves before its items were handed on (interrupted) leaves them to whoever gets
     * to them, so that they cannot block the sequence.
     */
    private void disown(Object owner, long last) {
        synchronized (lock) {
            if (closed || next > last) {
                return;
            }
            early.replaceAll((s, w) -> w.owner() == owner ? new Waiting(w.item(), null) : w);
            lock.notifyAll();
        }
    }

    /**
     * Stops handing frames on and runs {@code onClosed} once no frame is being handed on (at once,
     * or when the current one is done).
     *
     * @return false if it was closed already
     */
    boolean close(Runnable onClosed) {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            closed = true;
            early.clear();
            lock.notifyAll();
            if (handing) {
                closeAction = onClosed;
                return true;
            }
        }
        onClosed.run();
        return true;
    }
}
