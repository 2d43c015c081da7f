package org.salgate.agent.session;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The bounded pool that runs requests calling plugins, off the transport's I/O threads. */
public final class WorkerPool {

    private WorkerPool() {}

    /**
     * A pool of {@code threads} daemon threads with room for {@code queued} waiting requests; a
     * request beyond that is rejected (and answered OVERLOADED) instead of queued.
     */
    public static ThreadPoolExecutor create(int threads, int queued) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queued), r -> {
                    Thread t = new Thread(r, "sal-worker-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
