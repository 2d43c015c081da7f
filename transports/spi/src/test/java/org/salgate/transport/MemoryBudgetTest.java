package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MemoryBudgetTest {

    private static final Runnable NO_EVICTION = () -> { };

    @Test
    void takesAndGivesAreCountedPerConnectionAndInTotal() {
        MemoryBudget budget = new MemoryBudget(1000);
        MemoryBudget.Account a = budget.open("a", NO_EVICTION);
        MemoryBudget.Account b = budget.open("b", NO_EVICTION);
        assertTrue(a.take(300));
        assertTrue(b.take(200));
        assertEquals(300, a.held());
        assertEquals(500, budget.held());
        a.give(100);
        assertEquals(200, a.held());
        assertEquals(400, budget.held());
        assertEquals(2, budget.connections());
        assertTrue(a.take(0), "nothing is always there to take");
    }

    @Test
    void closingGivesBackAllTheConnectionHeldAndRefusesItsLaterTakes() {
        MemoryBudget budget = new MemoryBudget(1000);
        MemoryBudget.Account a = budget.open("a", NO_EVICTION);
        assertTrue(a.take(600));
        a.close();
        a.close();
        assertTrue(a.isClosed());
        assertEquals(0, budget.held());
        assertEquals(0, budget.connections());
        assertFalse(a.take(1), "a closed account took bytes");
        a.give(600);
        assertEquals(0, budget.held(), "a give after the close counted");
    }

    @Test
    void aGiveOfMoreThanWasTakenGivesBackOnlyWhatWasTaken() {
        MemoryBudget budget = new MemoryBudget(1000);
        MemoryBudget.Account a = budget.open("a", NO_EVICTION);
        MemoryBudget.Account b = budget.open("b", NO_EVICTION);
        a.take(100);
        b.take(100);
        a.give(500);
        assertEquals(0, a.held());
        assertEquals(100, budget.held(), "one connection's surplus give took another's bytes off the count");
    }

    @Test
    void theLargestOtherConnectionIsEvictedAndItsActionRunOnTheBudgetsThread() throws Exception {
        MemoryBudget budget = new MemoryBudget(1000);
        CountDownLatch evicted = new CountDownLatch(1);
        AtomicReference<Thread> evictingThread = new AtomicReference<>();
        AtomicInteger smallEvictions = new AtomicInteger();
        MemoryBudget.Account large = budget.open("large", () -> {
            evictingThread.set(Thread.currentThread());
            evicted.countDown();
        });
        MemoryBudget.Account small = budget.open("small", smallEvictions::incrementAndGet);
        MemoryBudget.Account taker = budget.open("taker", NO_EVICTION);
        assertTrue(large.take(700));
        assertTrue(small.take(200));

        assertTrue(taker.take(300), "the taker holding least was refused while a larger connection could go");

        assertTrue(evicted.await(5, TimeUnit.SECONDS), "the largest connection's evict action did not run");
        assertTrue(evictingThread.get() != Thread.currentThread(), "the evict action ran on the taker's thread");
        assertTrue(large.isClosed());
        assertEquals(0, large.held());
        assertEquals(500, budget.held(), "the evicted connection's bytes are still counted");
        assertEquals(2, budget.connections());
        assertEquals(0, smallEvictions.get(), "a connection that was not the largest was evicted");
    }

    @Test
    void onlyTheLargestIsEvictedWhenSeveralHoldMoreThanTheTake() throws Exception {
        MemoryBudget budget = new MemoryBudget(1000);
        CountDownLatch evicted = new CountDownLatch(1);
        AtomicInteger secondEvictions = new AtomicInteger();
        MemoryBudget.Account first = budget.open("first", evicted::countDown);
        MemoryBudget.Account second = budget.open("second", secondEvictions::incrementAndGet);
        MemoryBudget.Account taker = budget.open("taker", NO_EVICTION);
        first.take(450);
        second.take(400);

        assertTrue(taker.take(350));
        assertTrue(evicted.await(5, TimeUnit.SECONDS));
        assertTrue(first.isClosed());
        assertFalse(second.isClosed(), "more connections were evicted than the take needed");
        assertEquals(0, secondEvictions.get());
        assertEquals(750, budget.held());
    }

    @Test
    void theTakerIsRefusedWhenItWouldHoldTheMostAndNothingIsEvicted() {
        MemoryBudget budget = new MemoryBudget(1000);
        AtomicInteger evictions = new AtomicInteger();
        MemoryBudget.Account other = budget.open("other", evictions::incrementAndGet);
        MemoryBudget.Account hoarder = budget.open("hoarder", NO_EVICTION);
        other.take(300);
        hoarder.take(600);

        assertFalse(hoarder.take(200), "the connection holding the most was let past the bound");
        assertEquals(600, hoarder.held(), "a refused take was counted");
        assertFalse(other.isClosed(), "a smaller connection was evicted for the largest one");
        assertEquals(0, evictions.get());
        assertEquals(900, budget.held());
    }

    @Test
    void aTakeLargerThanTheWholeBudgetIsRefusedWithoutEvictingAnyone() {
        MemoryBudget budget = new MemoryBudget(1000);
        MemoryBudget.Account other = budget.open("other", NO_EVICTION);
        MemoryBudget.Account taker = budget.open("taker", NO_EVICTION);
        other.take(900);
        assertFalse(taker.take(2000));
        assertFalse(other.isClosed());
    }

    @Test
    void anEvictedConnectionsGivesAreIgnoredAndItsTakesRefused() throws Exception {
        MemoryBudget budget = new MemoryBudget(1000);
        CountDownLatch evicted = new CountDownLatch(1);
        MemoryBudget.Account victim = budget.open("victim", evicted::countDown);
        MemoryBudget.Account taker = budget.open("taker", NO_EVICTION);
        victim.take(800);
        assertTrue(taker.take(400));
        assertTrue(evicted.await(5, TimeUnit.SECONDS));

        victim.give(800);
        assertEquals(400, budget.held(), "an evicted connection's give was counted");
        assertFalse(victim.take(1), "an evicted connection took bytes");
        victim.close();
        assertEquals(400, budget.held());
    }

    @Test
    void aFailingEvictActionDoesNotStopTheNextEviction() throws Exception {
        MemoryBudget budget = new MemoryBudget(100);
        CountDownLatch second = new CountDownLatch(1);
        MemoryBudget.Account failing = budget.open("failing", () -> {
            throw new IllegalStateException("thrown on purpose by the test");
        });
        MemoryBudget.Account next = budget.open("next", second::countDown);
        MemoryBudget.Account taker = budget.open("taker", NO_EVICTION);
        failing.take(90);
        assertTrue(taker.take(20));
        next.take(70);
        assertTrue(taker.take(20));
        assertTrue(second.await(5, TimeUnit.SECONDS), "an eviction after a failed evict action did not run");
    }

    @Test
    void aBudgetMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MemoryBudget(0));
        assertTrue(e.getMessage().contains(MemoryBudget.OPTION), e.getMessage());
    }

    @Test
    @Timeout(60)
    void concurrentTakesGivesAndClosesNeverPassTheBoundAndLeaveNothingHeld() throws Exception {
        long bound = 64 * 1024;
        MemoryBudget budget = new MemoryBudget(bound);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger overBound = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int connection = 0; connection < 200; connection++) {
                    MemoryBudget.Account account = budget.open("connection " + connection, NO_EVICTION);
                    long mine = 0;
                    for (int i = 0; i < 500; i++) {
                        if (random.nextBoolean()) {
                            long n = random.nextInt(1, 4096);
                            if (account.take(n)) {
                                mine += n;
                            }
                        } else if (mine > 0) {
                            long n = random.nextLong(1, mine + 1);
                            account.give(n);
                            mine -= n;
                        }
                        if (budget.held() > bound) {
                            overBound.incrementAndGet();
                        }
                    }
                    if (random.nextBoolean()) {
                        account.give(mine); // most connections give back before closing, some do not
                    }
                    account.close();
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        assertEquals(0, overBound.get(), "the total passed the bound");
        assertEquals(0, budget.held(), "bytes were left held after every connection closed");
        assertEquals(0, budget.connections(), "accounts were left open after every connection closed");
    }
}
