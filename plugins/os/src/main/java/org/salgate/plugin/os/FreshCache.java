package org.salgate.plugin.os;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** One value, fetched again once it is older than a maximum age. Thread-safe. */
final class FreshCache<T> {

    private final Supplier<T> source;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    private T value;
    private long fetchedAt;
    private boolean fetched;

    FreshCache(Supplier<T> source, long maxAgeNanos, LongSupplier nanoClock) {
        this.source = source;
        this.maxAgeNanos = maxAgeNanos;
        this.nanoClock = nanoClock;
    }

    /** The value, fetched now unless the last fetch is at most the maximum age old. */
    synchronized T get() {
        long now = nanoClock.getAsLong();
        if (!fetched || now - fetchedAt > maxAgeNanos) {
            value = source.get();
            fetchedAt = now;
            fetched = true;
        }
        return value;
    }
}
