package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits with deadlines instead of fixed sleeps. */
public final class Await {

    /** The default deadline: generous, because the machine is shared. */
    public static final Duration DEFAULT = Duration.ofSeconds(20);

    private static final long POLL_MILLIS = 5;

    private Await() {}

    /** Waits until {@code condition} holds, failing with {@code what} after {@link #DEFAULT}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT, condition);
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@code deadline}. */
    public static void until(String what, Duration deadline, BooleanSupplier condition) {
        until(() -> what, deadline, condition);
    }

    /** Waits until {@code condition} holds; {@code what} is evaluated only on failure. */
    public static void until(Supplier<String> what, Duration deadline, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("timed out after " + deadline.toMillis() + " ms waiting for: " + what.get());
            }
            sleep(POLL_MILLIS);
        }
    }

    /** The future's value, failing with {@code what} after {@link #DEFAULT} or on exceptional completion. */
    public static <T> T result(String what, CompletableFuture<T> future) {
        return result(what, DEFAULT, future);
    }

    /** The future's value, failing with {@code what} after {@code deadline} or on exceptional completion. */
    public static <T> T result(String what, Duration deadline, CompletableFuture<T> future) {
        try {
            return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fail("timed out after " + deadline.toMillis() + " ms waiting for: " + what);
        } catch (ExecutionException e) {
            return fail(what + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted waiting for: " + what);
        }
    }

    /** The exception the future failed with, failing if it succeeds or does not complete in time. */
    public static Throwable failure(String what, Duration deadline, CompletableFuture<?> future) {
        try {
            Object value = future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            return fail(what + ": expected a failure, got " + value);
        } catch (TimeoutException e) {
            return fail("timed out after " + deadline.toMillis() + " ms waiting for: " + what);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted waiting for: " + what);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
