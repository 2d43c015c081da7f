package org.salgate.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future of an answer a caller waits for, and of whatever is derived from it
 * ({@code thenApply} and the like). It completes as any {@link CompletableFuture} does; what
 * differs is the wait. A caller that blocks on it first spins for up to {@link #SPIN_NANOS}
 * before it parks, so that an answer that comes back within that time reaches a thread that is
 * already running instead of one the completing thread must wake.
 *
 * <p>This is the one place where a waiting caller skips a thread hand-off, for every transport
 * alike. The answer is read by the transport's own thread whatever the library; what the spin
 * saves is the wake-up of the parked caller (a futex call on one side, the scheduler's latency on
 * the other), which is a large part of a round trip on loopback and nothing on a real network.
 * It is bounded twice, so that it never takes from the threads that do the work: a wait spins at
 * most {@link #SPIN_NANOS}, and at most {@link #MAX_SPINNERS} threads of the process spin at once;
 * the other waiters park at once, as they would on a plain {@link CompletableFuture}. The measured
 * gain is in docs/performance.md.
 */
public final class AnswerFuture<T> extends CompletableFuture<T> {

    /** How long a waiting caller spins before it parks. */
    public static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** How many threads of the process spin at once: all cores but one, and at least one. */
    public static final int MAX_SPINNERS = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    private static final AtomicInteger SPINNERS = new AtomicInteger();

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new AnswerFuture<>();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        spin(SPIN_NANOS);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long start = System.nanoTime();
        long wait = unit.toNanos(timeout);
        spin(Math.min(wait, SPIN_NANOS));
        return super.get(Math.max(0, wait - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        spin(SPIN_NANOS);
        return super.join();
    }

    /** How many threads spin now; for tests. */
    static int spinners() {
        return SPINNERS.get();
    }

    /** Spins until done, {@code nanos} have passed or the thread is interrupted, if a spinner's place is free. */
    void spin(long nanos) {
        if (isDone() || nanos <= 0) {
            return;
        }
        if (SPINNERS.incrementAndGet() <= MAX_SPINNERS) {
            long end = System.nanoTime() + nanos;
            while (!isDone() && System.nanoTime() - end < 0 && !Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
        }
        SPINNERS.decrementAndGet();
    }
}
