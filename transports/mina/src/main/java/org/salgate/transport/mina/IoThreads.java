package org.salgate.transport.mina;

import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * The threads of one server or client: the loop of its acceptor or connector and those of its I/O
 * processors, on named daemon threads, so that closing it stops exactly these.
 */
final class IoThreads {

    private static final long CLOSE_GRACE_MILLIS = 5_000;
    private static final ThreadLocal<Boolean> ON_IO_THREAD = ThreadLocal.withInitial(() -> false);

    private final String name;
    /** The service's executor, which runs the loops, and its processors. */
    final ExecutorService pool;
    final SimpleIoProcessorPool<NioSession> processors;
    private final AtomicBoolean released = new AtomicBoolean();

    /**
     * Threads for a service with {@code processors} I/O processors. A processor's loop ends when it
     * has no session left and starts again with the next, so each may briefly need two threads.
     */
    IoThreads(String name, int processors) {
        this.name = name;
        this.pool = new ThreadPoolExecutor(0, 2 * (processors + 1), 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                factory(name));
        this.processors = new SimpleIoProcessorPool<>(NioProcessor.class, pool, processors,
                SelectorProvider.provider());
    }

    /** Named daemon threads, on which {@link #release} does not wait for MINA. */
    static ThreadFactory factory(String prefix) {
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

    /**
     * Disposes {@code service} and the processors, which closes their sessions and reports it to
     * the handler before it returns, and stops the threads, once: here, or on a fresh thread when
     * called from one of them, which cannot wait for itself.
     */
    void release(IoService service) {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        Runnable release = () -> {
            service.dispose(false);
            processors.dispose();
            pool.shutdown();
            try {
                pool.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        if (ON_IO_THREAD.get()) { // waiting for MINA here would deadlock
            factory(name + "-release").newThread(release).start();
        } else {
            release.run();
        }
    }
}
