package org.salgate.transport.xsocket;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The worker pool of one server or client, so closing it stops exactly its threads. */
final class WorkerThreads {

    private static final ThreadLocal<Boolean> ON_WORKER = ThreadLocal.withInitial(() -> false);

    private WorkerThreads() {}

    /** Named daemon threads, created on demand; xSocket runs multithreaded callbacks here. */
    static ExecutorService newPool(String prefix) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread t = new Thread(() -> {
                ON_WORKER.set(true);
                task.run();
            }, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), factory);
    }

    /** Whether the caller is one of these workers, where waiting for a callback could deadlock. */
    static boolean onWorker() {
        return ON_WORKER.get();
    }
}
