package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class InOrderDeliveryTest {

    private static final long DEADLINE_MILLIS = 20_000;

    /** What the sink was handed: the first byte of each frame, and the thread that handed it on. */
    private final List<String> handed = new CopyOnWriteArrayList<>();
    private final CountDownLatch releasePushed = new CountDownLatch(1);
    private final AtomicReference<String> protocolError = new AtomicReference<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    @AfterEach
    void releaseEverything() throws InterruptedException {
        releasePushed.countDown();
        for (Thread t : threads) {
            t.join(DEADLINE_MILLIS);
        }
    }

    /** A sink that holds pushed frames (first byte 'p') until released, like a paused client handler. */
    private InOrderDelivery slowOnPushedFrames() {
        return new InOrderDelivery(item -> {
            handed.add((char) item.bytes()[0] + "@" + Thread.currentThread().getName());
            if (item.bytes()[0] == 'p') {
                try {
                    releasePushed.await(DEADLINE_MILLIS * 3, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, protocolError::set);
    }

    private static InOrderDelivery.Item[] frames(char kind, int count) {
        InOrderDelivery.Item[] items = new InOrderDelivery.Item[count];
        for (int i = 0; i < count; i++) {
            items[i] = InOrderDelivery.Item.frame(new byte[] {(byte) kind}, 0);
        }
        return items;
    }

    private Thread start(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < end, t.getName() + " never started waiting");
            Thread.sleep(5);
        }
    }

    @Test
    void callerOfSendIsNotHeldByASlowHandlerOfPushedFrames() throws Exception {
        InOrderDelivery delivery = slowOnPushedFrames();
        // The push overtook the answer it follows: its frames wait for number 0.
        Thread push = start("push", () -> delivery.arrive(new long[] {1, 2}, frames('p', 2), true));
        awaitWaiting(push);

        Thread caller = start("caller", () -> delivery.arrive(new long[] {0}, frames('a', 1), false));
        caller.join(DEADLINE_MILLIS);
        assertFalse(caller.isAlive(), "the caller's thread is held handing on pushed frames: " + handed);
        // The answer goes first; either thread may hand it on (whichever reaches it first).
        assertTrue(handed.get(0).startsWith("a@"), "the answer must go first: " + handed);

        releasePushed.countDown();
        push.join(DEADLINE_MILLIS);
        assertFalse(push.isAlive(), "the push never returned: " + handed);
        assertEquals(List.of("p@push", "p@push"), handed.subList(1, handed.size()),
                "the pushed frames follow the answer, handed on by their own push: " + handed);
        assertNull(protocolError.get());
    }

    @Test
    void answerArrivingWhileAPushIsHandedOnFollowsItOnThePushThread() throws Exception {
        InOrderDelivery delivery = slowOnPushedFrames();
        Thread push = start("push", () -> delivery.arrive(new long[] {0}, frames('p', 1), true));
        awaitWaiting(push); // held by the sink on its frame

        Thread caller = start("caller", () -> delivery.arrive(new long[] {1}, frames('a', 1), false));
        caller.join(DEADLINE_MILLIS);
        assertFalse(caller.isAlive(), "the caller waited for the push to be handed on");

        releasePushed.countDown();
        push.join(DEADLINE_MILLIS);
        assertFalse(push.isAlive(), "the push never returned: " + handed);
        assertEquals(List.of("p@push", "a@push"), handed);
    }

    @Test
    void pushesAndAnswersInAnyArrivalOrderAreHandedOnInSequence() throws Exception {
        List<Integer> order = new CopyOnWriteArrayList<>();
        InOrderDelivery delivery = new InOrderDelivery(item -> order.add((int) item.bytes()[0]), protocolError::set);
        Thread push = start("push", () -> delivery.arrive(new long[] {3, 4, 5},
                new InOrderDelivery.Item[] {frame(3), frame(4), frame(5)}, true));
        awaitWaiting(push);
        delivery.arrive(new long[] {6}, new InOrderDelivery.Item[] {frame(6)}, false);
        delivery.arrive(new long[] {1}, new InOrderDelivery.Item[] {frame(1)}, false);
        delivery.arrive(new long[] {0}, new InOrderDelivery.Item[] {frame(0)}, false);
        assertEquals(List.of(0, 1), order, "answers 0 and 1 are handed on by their callers; 3 waits for 2");
        delivery.arrive(new long[] {2}, new InOrderDelivery.Item[] {frame(2)}, false);
        push.join(DEADLINE_MILLIS);
        assertFalse(push.isAlive(), "the push never returned: " + order);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), order);
        assertNull(protocolError.get());
    }

    @Test
    void sinkThatThrowsDoesNotStallTheSequence() {
        List<Integer> order = new CopyOnWriteArrayList<>();
        InOrderDelivery delivery = new InOrderDelivery(item -> {
            order.add((int) item.bytes()[0]);
            if (item.bytes()[0] == 0) {
                throw new IllegalStateException("handler bug");
            }
        }, protocolError::set);
        assertThrows(IllegalStateException.class,
                () -> delivery.arrive(new long[] {0}, new InOrderDelivery.Item[] {frame(0)}, false));
        delivery.arrive(new long[] {1}, new InOrderDelivery.Item[] {frame(1)}, false);
        assertEquals(List.of(0, 1), order);
    }

    @Test
    void closeWhileAFrameIsHandedOnRunsAfterIt() throws Exception {
        InOrderDelivery delivery = slowOnPushedFrames();
        CountDownLatch closedRan = new CountDownLatch(1);
        Thread push = start("push", () -> delivery.arrive(new long[] {0, 1}, frames('p', 2), true));
        awaitWaiting(push);
        assertTrue(delivery.close(closedRan::countDown));
        assertEquals(1, closedRan.getCount(), "the close action ran while a frame was being handed on");
        releasePushed.countDown();
        assertTrue(closedRan.await(DEADLINE_MILLIS, TimeUnit.MILLISECONDS), "the close action never ran");
        push.join(DEADLINE_MILLIS);
        assertEquals(List.of("p@push"), handed, "a frame was handed on after the close");
        assertFalse(delivery.close(() -> {}));
    }

    private static InOrderDelivery.Item frame(int n) {
        return InOrderDelivery.Item.frame(new byte[] {(byte) n}, 0);
    }
}
