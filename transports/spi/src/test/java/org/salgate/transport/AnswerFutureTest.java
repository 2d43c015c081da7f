package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AnswerFutureTest {

    private final ScheduledExecutorService completer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        completer.shutdownNow();
    }

    @Test
    void anAnswerThatComesWhileTheCallerSpinsIsReturned() throws Exception {
        AnswerFuture<String> answer = new AnswerFuture<>();
        completer.schedule(() -> answer.complete("soon"), 5, TimeUnit.MICROSECONDS);
        assertEquals("soon", answer.get(5, TimeUnit.SECONDS));
    }

    @Test
    void anAnswerThatComesLongAfterTheSpinWakesTheParkedCaller() throws Exception {
        AnswerFuture<String> answer = new AnswerFuture<>();
        completer.schedule(() -> answer.complete("late"), 50, TimeUnit.MILLISECONDS);
        assertEquals("late", answer.get());
        AnswerFuture<String> joined = new AnswerFuture<>();
        completer.schedule(() -> joined.complete("late too"), 50, TimeUnit.MILLISECONDS);
        assertEquals("late too", joined.join());
    }

    @Test
    void aTimedWaitEndsAtItsTimeoutNotAtTheSpin() {
        AnswerFuture<String> answer = new AnswerFuture<>();
        long start = System.nanoTime();
        assertThrows(TimeoutException.class, () -> answer.get(20, TimeUnit.MILLISECONDS));
        long waited = System.nanoTime() - start;
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(20), "returned after " + waited + " ns");
        assertThrows(TimeoutException.class, () -> answer.get(0, TimeUnit.NANOSECONDS));
    }

    @Test
    void whatIsDerivedFromAnAnswerWaitsTheSameWay() throws Exception {
        AnswerFuture<String> answer = new AnswerFuture<>();
        var length = answer.thenApply(String::length);
        assertInstanceOf(AnswerFuture.class, length);
        completer.schedule(() -> answer.complete("four"), 1, TimeUnit.MILLISECONDS);
        assertEquals(4, length.get());
    }

    @Test
    void callersBeyondTheSpinnersAllowedParkAtOnce() throws Exception {
        AnswerFuture<String> never = new AnswerFuture<>();
        long longSpin = TimeUnit.SECONDS.toNanos(2);
        CountDownLatch spinning = new CountDownLatch(AnswerFuture.MAX_SPINNERS);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < AnswerFuture.MAX_SPINNERS; i++) {
            Thread t = new Thread(() -> {
                spinning.countDown();
                never.spin(longSpin);
            });
            t.start();
            spinners.add(t);
        }
        spinning.await();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (AnswerFuture.spinners() < AnswerFuture.MAX_SPINNERS && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(AnswerFuture.MAX_SPINNERS, AnswerFuture.spinners(), "the allowed spinners should all spin");
        long start = System.nanoTime();
        never.spin(longSpin);
        long spun = System.nanoTime() - start;
        assertTrue(spun < TimeUnit.MILLISECONDS.toNanos(500), "a caller beyond the limit spun " + spun + " ns");
        assertEquals(AnswerFuture.MAX_SPINNERS, AnswerFuture.spinners(), "the caller beyond the limit left its place");
        never.complete("done");
        for (Thread t : spinners) {
            t.join(5_000);
        }
        assertEquals(0, AnswerFuture.spinners(), "spinners should stop once the answer is there");
    }

    @Test
    void anInterruptedCallerStopsSpinningAndIsInterrupted() {
        AnswerFuture<String> never = new AnswerFuture<>();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, never::get);
    }
}
