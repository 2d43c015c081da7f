package org.salgate.client;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one daemon thread, shared by every client in the JVM, that fails requests left unanswered
 * too long. Cancelled timeouts are removed at once, so answered requests leave nothing behind.
 */
final class RequestTimer {

    private static final ScheduledThreadPoolExecutor TIMER = create();

    private RequestTimer() {}

    static ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        return TIMER.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    private static ScheduledThreadPoolExecutor create() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "salgate-client-timer");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
