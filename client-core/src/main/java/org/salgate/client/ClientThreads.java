package org.salgate.client;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads, shared by every client in the JVM, for the work a client must not do on its
 * transport's thread. Each thread ends after {@value #IDLE_SECONDS} s without work, so a process
 * that needs none holds none and nothing needs closing.
 */
final class ClientThreads {

    /** The prefix of the names of the threads that parse documents. */
    static final String DOCUMENTS = "salgate-client-documents-";
    /** The prefix of the names of the threads that send requests for the transport's thread. */
    static final String SENDS = "salgate-client-sends-";

    private static final long IDLE_SECONDS = 10; // long enough to serve a burst without a new thread each
    private static final Executor DOCUMENT_EXECUTOR = documentPool();
    private static final Executor SEND_EXECUTOR = sendPool();

    private ClientThreads() {}

    /**
     * Parses and validates the documents an agent answers (SensorML, CML). Validation is CPU work,
     * and the first SensorML document of the process also compiles the schema (about a second); on
     * the transport's thread it would hold up every other answer, reading and event of the
     * connection. At most one thread per core.
     */
    static Executor documents() {
        return DOCUMENT_EXECUTOR;
    }

    /**
     * Sends a request that follows an answer, such as a stream's start after its set-up: on some
     * transports a send writes on the calling thread and may wait for the agent to read, which on
     * the transport's own thread would wait for good. A thread is reused while it has work, and a
     * send that waits holds up no other (a new thread takes the next one).
     */
    static Executor sends() {
        return SEND_EXECUTOR;
    }

    private static Executor documentPool() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), named(DOCUMENTS));
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    private static Executor sendPool() {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), named(SENDS));
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
