package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallerTurnsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void anOwnThreadWithNoCallerAroundReadsAtOnce() {
        CallerTurns turns = new CallerTurns();

        assertEquals(0, turns.ownThreadStaysAwayNanos(false));
    }

    @Test
    void whileCallersHoldTheTurnTheOwnThreadLooksInAtDoublingTimesUpToTheLongest() {
        CallerTurns turns = new CallerTurns();

        long[] stays = new long[7];
        for (int i = 0; i < stays.length; i++) {
            stays[i] = turns.ownThreadStaysAwayNanos(true);
        }

        assertEquals(CallerTurns.CALLER_TURN_NANOS, stays[0]);
        assertEquals(2 * MS, stays[1]);
        assertEquals(4 * MS, stays[2]);
        assertEquals(8 * MS, stays[3]);
        assertEquals(CallerTurns.LONGEST_STAY_AWAY_NANOS, stays[4]);
        assertEquals(CallerTurns.LONGEST_STAY_AWAY_NANOS, stays[5]);
        assertEquals(CallerTurns.LONGEST_STAY_AWAY_NANOS, stays[6]);
    }

    @Test
    void afterACallersTurnTheOwnThreadStaysAwayAtLeastUntilTheCallerTurnTimeIsOver() {
        CallerTurns turns = new CallerTurns();
        turns.callerReads();

        long stay = turns.ownThreadStaysAwayNanos(false);

        assertTrue(stay > 0 && stay <= CallerTurns.CALLER_TURN_NANOS, "stay " + stay);
    }

    @Test
    void onceTheOwnThreadReadsItsStaysStartAgainFromTheShortest() throws InterruptedException {
        CallerTurns turns = new CallerTurns();
        for (int i = 0; i < 5; i++) {
            turns.ownThreadStaysAwayNanos(true);
        }
        turns.callerReads();
        Thread.sleep(2 * CallerTurns.CALLER_TURN_NANOS / MS);

        assertEquals(0, turns.ownThreadStaysAwayNanos(false), "the caller left long enough ago: read now");
        assertEquals(CallerTurns.CALLER_TURN_NANOS, turns.ownThreadStaysAwayNanos(true));
    }

    @Test
    void aCallerWaitingWithoutTheTurnIsForgottenOnceItsAnswerIsIn() {
        CallerTurns turns = new CallerTurns();
        CompletableFuture<Object> answer = new CompletableFuture<>();
        turns.waitsWithoutTurn(answer, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));

        assertTrue(turns.someoneWaitsWithoutTurn());
        answer.complete("done");
        assertFalse(turns.someoneWaitsWithoutTurn());
    }
}
