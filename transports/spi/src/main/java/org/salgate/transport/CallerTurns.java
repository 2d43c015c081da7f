package org.salgate.transport;

import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * The bookkeeping of a client connection whose reading takes turns between waiting callers
 * ({@link TransportClient#readWhileWaiting}) and the connection's own reading thread: while a
 * caller holds the turn, and for {@link #CALLER_TURN_NANOS} after a caller's turn, the own thread
 * stays away, so that back-to-back calls each find the connection free, and it comes back at once
 * while a caller that found the turn taken still waits for an answer that is due. The turn itself
 * (a lock) is the transport's.
 *
 * <p>The own thread looks in on a timer, not on a wake-up from each caller that leaves: a wake-up
 * per call costs a context switch per call, which many connections' callers in one process pay
 * over and over. So that the timer costs little either, each look that finds callers still reading
 * doubles the time until the next ({@link #ownThreadStaysAwayNanos}), from
 * {@link #CALLER_TURN_NANOS} up to {@link #LONGEST_STAY_AWAY_NANOS}. A frame the agent pushes
 * while no caller reads is therefore read at most that much later.
 */
public final class CallerTurns {

    /** How long the connection's own thread leaves the connection to callers after a caller's turn. */
    public static final long CALLER_TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The longest the own thread stays away while it keeps finding callers reading. */
    public static final long LONGEST_STAY_AWAY_NANOS = TimeUnit.MILLISECONDS.toNanos(16);

    /** How long a caller waits for the turn to be given back before it leaves the work to the holder. */
    public static final long TURN_WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /**
     * Takes {@code turn} if it is free, or becomes free within {@link #TURN_WAIT_NANOS}: the
     * connection's own thread, having just delivered an answer, gives the turn back a moment later,
     * and a caller that gave up at once would leave the next answer to that thread too, and the
     * one after, and so on. An interrupted caller does not take it, and keeps its interrupt.
     */
    public static boolean takeSoon(ReentrantLock turn) {
        if (turn.tryLock()) {
            return true;
        }
        try {
            return turn.tryLock(TURN_WAIT_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's own wait then ends as interrupted
            return false;
        }
    }

    /**
     * Has {@code wake} run when {@code answer} completes, if it is a {@link CompletionStage}: a
     * caller waiting for I/O is then woken when another thread completes its answer, and need not
     * look at it in short slices. Other futures cannot tell; their callers look between slices.
     *
     * @return whether {@code wake} will run on completion
     */
    public static boolean wakeWhenDone(Future<?> answer, BiConsumer<Object, Throwable> wake) {
        if (answer instanceof CompletionStage<?> stage) {
            stage.whenComplete(wake);
            return true;
        }
        return false;
    }

    /** Answers (and their deadlines) whose callers wait without the turn. */
    private final Map<Future<?>, Long> waitingWithoutTurn = new ConcurrentHashMap<>();
    /** Until when ({@link System#nanoTime()}) the connection's own thread stays away. */
    private volatile long ownThreadAwayUntil;
    /** How long the own thread stays away the next time it finds callers reading; its own. */
    private long nextStayNanos = CALLER_TURN_NANOS;

    /** A caller is taking, or has just had, a turn: the own thread stays away from now on for a while. */
    public void callerReads() {
        ownThreadAwayUntil = System.nanoTime() + CALLER_TURN_NANOS;
    }

    /** How much longer the own thread stays away after the last caller's turn; zero or less once over. */
    private long ownThreadAwayNanos() {
        return ownThreadAwayUntil - System.nanoTime();
    }

    /**
     * For the connection's own thread when nothing but reading asks for it (no frames left
     * undelivered, no caller waiting without the turn, no task): how long to stay away now, or zero
     * to read now. It stays away while a caller holds the turn ({@code turnTaken}) or had it less
     * than {@link #CALLER_TURN_NANOS} ago; each time it finds so, the next stay doubles, up to
     * {@link #LONGEST_STAY_AWAY_NANOS}, and once it reads, the stays start again from
     * {@link #CALLER_TURN_NANOS}. Only the own thread calls this.
     */
    public long ownThreadStaysAwayNanos(boolean turnTaken) {
        long away = ownThreadAwayNanos();
        if (!turnTaken && away <= 0) {
            nextStayNanos = CALLER_TURN_NANOS;
            return 0;
        }
        long stay = Math.max(away, nextStayNanos);
        nextStayNanos = Math.min(2 * nextStayNanos, LONGEST_STAY_AWAY_NANOS);
        return stay;
    }

    /** A caller found the turn taken and leaves the reading to whoever holds it, until its deadline. */
    public void waitsWithoutTurn(Future<?> answer, long deadlineNanos) {
        waitingWithoutTurn.put(answer, deadlineNanos);
    }

    /** Whether a caller waits without the turn for an answer that is due; forgets the others. */
    public boolean someoneWaitsWithoutTurn() {
        if (waitingWithoutTurn.isEmpty()) {
            return false;
        }
        boolean waits = false;
        long now = System.nanoTime();
        for (Map.Entry<Future<?>, Long> entry : waitingWithoutTurn.entrySet()) {
            if (entry.getKey().isDone() || entry.getValue() - now <= 0) {
                waitingWithoutTurn.remove(entry.getKey(), entry.getValue());
            } else {
                waits = true;
            }
        }
        return waits;
    }
}
