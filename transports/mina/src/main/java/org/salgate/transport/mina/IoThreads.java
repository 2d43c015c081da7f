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

    /** An unbounded pool of named daemon threads; MINA keeps one thread per acceptor, connector and processor. */
    static ExecutorService newPool(String prefix) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread t = new Thread(() -> {
                ON_IO_THREAD.set(true);
                task.run();
            }, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), factory);
    }

    /** Whether the caller runs on a thread of one of these pools, where waiting for MINA would deadlock. */
    static boolean onIoThread() {
        return ON_IO_THREAD.get();
    }
}
