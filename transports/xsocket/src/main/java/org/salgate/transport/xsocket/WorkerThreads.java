package org.salgate.transport.xsocket;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The worker pool of one server or client, so closing it stops exactly its threads. */
final class WorkerThreads {

    private static final ThreadLocal<Boolean> ON_WORKER = ThreadLocal.withInitial(() -> false);

    private WorkerThreads() {}

    /**
     * The threads of a server's pool: twice the I/O threads (or the processors when
     * {@code ioThreads} is 0), at least 4. xSocket only queues a connection's callbacks here while
     * another of its callbacks runs, so a few threads serve any number of connections.
     */
    static int serverPoolSize(int ioThreads) {
        int io = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        return Math.max(4, 2 * io);
    }

    /**
     * At most {@code maxThreads} named daemon threads, created on demand and ended after 30 s idle;
     * tasks wait in the queue while all are busy. xSocket runs multithreaded callbacks here.
     */
    static ExecutorService newPool(String prefix, int maxThreads) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread t = new Thread(() -> {
                ON_WORKER.set(true);
                task.run();
            }, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor pool = new ThreadPoolExecutor(maxThreads, maxThreads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), factory);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Whether the caller is one of these workers, where waiting for a callback could deadlock. */
    static boolean onWorker() {
        return ON_WORKER.get();
    }
}
