package org.salgate.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.transport.TransportClient;

/**
 * The future of a request, and of whatever is derived from it ({@code thenApply} and the like):
 * a thread that waits on it first offers itself to the transport to read the answer
 * ({@link TransportClient#readWhileWaiting}), so that on a transport that allows it the answer
 * reaches the caller without a hand-off from another thread. It completes as any
 * {@link CompletableFuture} does, and the wait ends as it would without the offer.
 */
final class AnswerFuture<T> extends CompletableFuture<T> {

    /** A deadline that does not come: a century of {@link System#nanoTime()} ahead. */
    private static final long FAR_NANOS = TimeUnit.DAYS.toNanos(36_500);

    private final TransportClient transport;
    /** The request's deadline ({@link System#nanoTime()}), or {@link Long#MAX_VALUE} for none. */
    private final long deadlineNanos;

    AnswerFuture(TransportClient transport, long deadlineNanos) {
        this.transport = transport;
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new AnswerFuture<>(transport, deadlineNanos);
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        offer(deadlineNanos);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long now = System.nanoTime();
        long wait = unit.toNanos(timeout);
        offer(wait >= FAR_NANOS ? deadlineNanos : Math.min(deadlineNanos, now + Math.max(0, wait)), now);
        return super.get(Math.max(0, wait - (System.nanoTime() - now)), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        offer(deadlineNanos);
        return super.join();
    }

    private void offer(long deadline) {
        offer(deadline, System.nanoTime());
    }

    private void offer(long deadline, long now) {
        if (isDone()) {
            return;
        }
        // the transport takes a System.nanoTime() instant: none set means a century from now
        transport.readWhileWaiting(this, deadline == Long.MAX_VALUE ? now + FAR_NANOS : deadline);
    }
}
