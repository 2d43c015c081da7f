package org.salgate.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GatewayMetricsTest {

    @Test
    void aCountReadElsewhereIsStillReadAfterTheGarbageCollectorRan() throws InterruptedException {
        GatewayMetrics metrics = new GatewayMetrics();
        AtomicLong count = new AtomicLong();
        metrics.counter("salgate.test.things", "Things", () -> count.get()); // a lambda nothing else holds
        metrics.gauge("salgate.test.level", "Level", () -> count.get() * 2);
        count.set(7);
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        String scrape = metrics.scrape();
        assertTrue(scrape.contains("salgate_test_things_total 7.0"), scrape);
        assertTrue(scrape.contains("salgate_test_level 14.0"), scrape);
    }
}
