package org.salgate.plugin.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SmallFunctionsTest {

    @Test
    void zeroOrNaNTemperatureIsNotPresent() {
        assertFalse(Temperatures.isPresent(0.0));
        assertFalse(Temperatures.isPresent(-0.0));
        assertFalse(Temperatures.isPresent(Double.NaN));
        assertFalse(Temperatures.isPresent(Double.POSITIVE_INFINITY));
        assertTrue(Temperatures.isPresent(42.5));
    }

    @Test
    void freshCacheFetchesAgainOnlyPastItsMaximumAge() {
        AtomicLong clock = new AtomicLong(1_000);
        AtomicInteger fetches = new AtomicInteger();
        FreshCache<Integer> cache = new FreshCache<>(fetches::incrementAndGet, 10, clock::get);
        assertEquals(1, cache.get());
        clock.addAndGet(10);
        assertEquals(1, cache.get());
        clock.addAndGet(1);
        assertEquals(2, cache.get());
    }
}
