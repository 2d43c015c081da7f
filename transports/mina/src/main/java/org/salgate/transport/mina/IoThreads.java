package org.salgate.transport.mina;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread pools owned by one server or client, so that closing it can stop exactly its threads. */
final class IoThreads {

    private static final ThreadLocal<Boolean> ON_IO_THREAD = ThreadLocal.withInitial(() -> false);

    private IoThreads() {}

    /**
     * A pool of at most {@code maxThreads} named daemon threads; MINA keeps one thread per acceptor,
     * connector and processor, each running a loop, so the bound is their number. A task past it is
     * refused ({@link java.util.concurrent.RejectedExecutionException}), never queued behind loops
     * that do not end.
     */
    static ExecutorService newPool(String prefix, int maxThreads) {
        return new ThreadPoolExecutor(0, maxThreads, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), factory(prefix));
    }

    private static ThreadFactory factory(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread t = new Thread(() -> {
                ON_IO_THREAD.set(true);
                task.run();
            }, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Whether the caller runs on a thread of one of these pools, where waiting for MINA would deadlock. */
    static boolean onIoThread() {
        return ON_IO_THREAD.get();
    }
}
