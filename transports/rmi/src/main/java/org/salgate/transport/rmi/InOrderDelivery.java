package org.salgate.transport.rmi;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Puts a client's incoming frames back in the agent's order. Answers come back on the threads that
 * made the calls and pushes on RMI's threads, so they can overtake each other; each carries its
 * sequence number, and whichever thread holds the next one hands frames on, one at a time, until
 * there is a gap. A push waits until its frame has been handed on, which paces the agent.
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

    private final Object lock = new Object();
    private final Map<Long, Item> early = new HashMap<>();
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
     * Takes {@code items[i]} numbered {@code sequences[i]}, hands on what it can, and with
     * {@code await} returns only once these items have been handed on or the delivery closed.
     */
    void arrive(long[] sequences, Item[] items, boolean await) {
        String error = null;
        long sequence = Long.MIN_VALUE; // the highest number among these items
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
                    early.put(s, items[i]);
                    sequence = Math.max(sequence, s);
                }
            }
            lock.notifyAll();
        }
        if (error != null) {
            protocolError.accept(error);
            return;
        }
        boolean mine = false;
        try {
            while (true) {
                Item current;
                synchronized (lock) {
                    while (true) {
                        if (closed) {
                            return;
                        }
                        if (!mine && !handing && early.containsKey(next)) {
                            handing = true;
                            mine = true;
                        }
                        if (mine) {
                            current = early.remove(next);
                            if (current != null) {
                                break;
                            }
                            handing = false;
                            mine = false;
                            lock.notifyAll();
                        }
                        if (!await || next > sequence) {
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
                sink.accept(current);
                synchronized (lock) {
                    next++;
                    lock.notifyAll();
                }
            }
        } finally {
            if (mine) {
                Runnable action;
                synchronized (lock) {
                    handing = false;
                    action = closeAction;
                    closeAction = null;
                    lock.notifyAll();
                }
                if (action != null) {
                    action.run();
                }
            }
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
