package org.salgate.transport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sessions a server has open, and how a stopping server ends them: each is closed (what it
 * queued still leaves), the server waits up to a grace period for them to finish, then ends the
 * rest at once and waits up to the grace period again. Thread-safe.
 *
 * @param <S> the transport's session
 */
public final class OpenSessions<S extends Session> {

    private final Map<Long, S> open = new ConcurrentHashMap<>();

    /** A session was set up. */
    public void add(S session) {
        open.put(session.id(), session);
    }

    /** A session finished: its end was reported to the server handler. */
    public void remove(S session) {
        open.remove(session.id());
        synchronized (open) {
            open.notifyAll();
        }
    }

    /** The sessions open now. */
    public List<S> all() {
        return List.copyOf(open.values());
    }

    /**
     * Closes every session, waits up to {@code graceMillis} for them to finish, ends those left with
     * {@code endNow}, and waits up to {@code graceMillis} again.
     *
     * @return how many sessions were still open at the end
     */
    public int closeAll(long graceMillis, Consumer<S> endNow) {
        all().forEach(Session::close);
        awaitNone(graceMillis);
        all().forEach(endNow);
        awaitNone(graceMillis);
        return open.size();
    }

    private void awaitNone(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (open) {
            while (!open.isEmpty()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                try {
                    open.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
