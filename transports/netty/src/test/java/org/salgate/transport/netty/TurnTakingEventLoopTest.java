package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client connection's event loop without a connection: its own thread runs what is queued and
 * scheduled while no caller does, a caller that has the turn leaves when its answer is completed
 * elsewhere, and it stops for good.
 */
@Timeout(30)
class TurnTakingEventLoopTest {

    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private TurnTakingEventLoop loop;

    @AfterEach
    void tearDown() throws Exception {
        later.shutdownNow();
        if (loop != null) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            loop.terminationFuture().await(5_000);
        }
    }

    /** Epoll where it loads (as the tests' machines do), and NIO. */
    enum Io {
        PROCESS {
            @Override
            NettyIo io() {
                return NettyIo.current();
            }
        },
        NIO {
            @Override
            NettyIo io() {
                return NettyIo.nio();
            }
        };

        abstract NettyIo io();
    }

    private TurnTakingEventLoop start(Io io) {
        loop = TurnTakingEventLoop.start(io.io().handlerFactory(), "test-loop");
        return loop;
    }

    /**
     * What a call's answer does: a round through the loop that a caller waits for. The loop's own
     * thread then stays away for a moment, as after a call, and the next caller finds the turn
     * free. (An idle loop's own thread holds the turn while it waits for I/O, and a caller that
     * finds it so leaves the wait to it.)
     */
    private void roundTrip() throws Exception {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        loop.execute(() -> answered.complete(null));
        loop.runUntilDone(answered, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
        answered.get(5, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void aTaskQueuedFromAnotherThreadRunsOnTheLoopWhileNoCallerDoes(Io io) throws Exception {
        start(io);
        for (int i = 0; i < 100; i++) {
            CompletableFuture<Boolean> inLoop = new CompletableFuture<>();
            loop.execute(() -> inLoop.complete(loop.inEventLoop()));
            assertTrue(inLoop.get(5, TimeUnit.SECONDS), "the task ran as the loop's thread");
            assertFalse(loop.inEventLoop(), "the test's thread is not the loop's");
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void aScheduledTaskRunsAtItsTimeThoughNobodyCalls(Io io) throws Exception {
        start(io);
        long started = System.nanoTime();
        CompletableFuture<Long> ran = new CompletableFuture<>();
        loop.schedule(() -> ran.complete(System.nanoTime()), 200, TimeUnit.MILLISECONDS);
        long afterMillis = TimeUnit.NANOSECONDS.toMillis(ran.get(10, TimeUnit.SECONDS) - started);
        assertTrue(afterMillis >= 190, "ran after " + afterMillis + " ms");
        assertTrue(afterMillis < 5_000, "ran after " + afterMillis + " ms");
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void aCallerWithTheTurnLeavesWhenAnotherThreadCompletesItsAnswer(Io io) throws Exception {
        start(io);
        boolean hadTheTurn = false;
        for (int attempt = 0; attempt < 50 && !hadTheTurn; attempt++) {
            roundTrip();
            CompletableFuture<String> answer = new CompletableFuture<>();
            later.schedule(() -> answer.complete("done elsewhere"), 100, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            loop.runUntilDone(answer, started + TimeUnit.SECONDS.toNanos(20));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            // it had the turn and waited for the answer, or found the turn taken and left at once
            hadTheTurn = waitedMillis >= 90;
            assertTrue(waitedMillis < 5_000, "the caller left " + waitedMillis + " ms after it came, not when its answer was done");
            assertEquals("done elsewhere", answer.get(5, TimeUnit.SECONDS));
        }
        assertTrue(hadTheTurn, "in 50 attempts, the caller never found the turn free");
    }

    @Test
    void aCallerWithTheTurnRunsWhatOthersQueueOnItsOwnThread() throws Exception {
        start(Io.PROCESS);
        boolean ranOnCaller = false;
        for (int attempt = 0; attempt < 50 && !ranOnCaller; attempt++) {
            roundTrip();
            CompletableFuture<Thread> ranOn = new CompletableFuture<>();
            later.schedule(() -> loop.execute(() -> ranOn.complete(Thread.currentThread())), 50, TimeUnit.MILLISECONDS);
            loop.runUntilDone(ranOn, System.nanoTime() + TimeUnit.SECONDS.toNanos(20));
            ranOnCaller = ranOn.get(5, TimeUnit.SECONDS) == Thread.currentThread();
        }
        assertTrue(ranOnCaller, "in 50 attempts, no task queued during a caller's turn ran on the caller");
    }

    /**
     * What a library's write does when handed a request on the sender's thread (gRPC's): it queues
     * its flush on the loop. The flush then runs on the sender before it gives the turn back; what
     * that flush queues in turn is left to the loop.
     */
    @ParameterizedTest
    @EnumSource(Io.class)
    void aSenderWithTheTurnRunsWhatItsTaskQueuedBeforeItLeaves(Io io) throws Exception {
        start(io);
        boolean ranOnSender = false;
        for (int attempt = 0; attempt < 50 && !ranOnSender; attempt++) {
            roundTrip();
            CompletableFuture<Thread> flushedOn = new CompletableFuture<>();
            CompletableFuture<Thread> afterFlushOn = new CompletableFuture<>();
            CompletableFuture<Thread> sentOn = new CompletableFuture<>();
            loop.runNowOrExecute(() -> {
                sentOn.complete(Thread.currentThread());
                loop.execute(() -> {
                    flushedOn.complete(Thread.currentThread());
                    loop.execute(() -> afterFlushOn.complete(Thread.currentThread()));
                });
            });
            Thread sender = sentOn.get(5, TimeUnit.SECONDS);
            Thread flusher = flushedOn.get(5, TimeUnit.SECONDS);
            assertTrue(afterFlushOn.get(5, TimeUnit.SECONDS) != null, "what the flush queued ran on the loop");
            if (sender == Thread.currentThread()) { // the turn was free: the sender ran its task
                assertEquals(sender, flusher, "the flush its task queued ran on the sender too");
                ranOnSender = true;
            }
        }
        assertTrue(ranOnSender, "in 50 attempts, the sender never found the turn free");
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void afterShutdownTheLoopTerminatesAndRefusesTasks(Io io) throws Exception {
        start(io);
        CompletableFuture<Boolean> ran = new CompletableFuture<>();
        loop.execute(() -> ran.complete(true));
        assertTrue(ran.get(5, TimeUnit.SECONDS));
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        assertTrue(loop.terminationFuture().await(5_000), "the loop terminated");
        assertTrue(loop.isTerminated());
        assertThrows(RejectedExecutionException.class, () -> loop.execute(() -> { }));
        CompletableFuture<String> never = new CompletableFuture<>();
        long started = System.nanoTime();
        loop.runUntilDone(never, started + TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(1), "a stopped loop does not keep a caller");
    }
}
