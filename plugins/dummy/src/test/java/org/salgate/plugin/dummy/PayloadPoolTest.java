package org.salgate.plugin.dummy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PayloadPoolTest {

    @Test
    void contentIsTheFixedPattern() {
        byte[] bytes = new PayloadPool(64).payload(300);
        assertEquals(300, bytes.length);
        assertEquals(0, bytes[0]);
        assertEquals((byte) 255, bytes[255]);
        assertEquals(0, bytes[256]);
    }

    @Test
    void cacheStaysWithinItsBudget() {
        PayloadPool pool = new PayloadPool(64);
        int big = 16 * 1024 * 1024;
        for (int i = 0; i < 6; i++) {
            assertEquals(big - i, pool.payload(big - i).length);
            assertTrue(pool.cachedBytes() <= PayloadPool.BUDGET_BYTES, "cached " + pool.cachedBytes());
        }
    }

    @Test
    void leastRecentlyUsedSizeIsEvictedFirst() {
        PayloadPool pool = new PayloadPool(0);
        int quarter = (int) (PayloadPool.BUDGET_BYTES / 4);
        byte[] a = pool.payload(quarter);
        byte[] b = pool.payload(quarter - 1);
        pool.payload(quarter - 2);
        pool.payload(quarter - 3);
        assertSame(a, pool.payload(quarter));
        pool.payload(quarter - 4);
        assertSame(a, pool.payload(quarter));
        assertNotSame(b, pool.payload(quarter - 1));
    }
}
