package org.salgate.client;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads, shared by every client in the JVM, that parse and validate the documents an
 * agent answers (SensorML, CML). Validation is CPU work, and the first SensorML document of the
 * process also compiles the schema (about a second); on the transport's thread it would hold up
 * every other answer, reading and event of the connection. At most one thread per core; each ends
 * after {@value #IDLE_SECONDS} s without work, so a process that parses no document holds none and
 * nothing needs closing.
 */
final class DocumentThreads {

    /** The prefix of the threads' names. */
    static final String NAME = "salgate-client-documents-";

    private static final long IDLE_SECONDS = 10; // long enough to serve a burst of describes without a new thread each
    private static final Executor EXECUTOR = create();

    private DocumentThreads() {}

    static Executor executor() {
        return EXECUTOR;
    }

    private static Executor create() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, NAME + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), factory);
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }
}
