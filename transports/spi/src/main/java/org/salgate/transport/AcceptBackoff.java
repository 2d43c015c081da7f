package org.salgate.transport;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an accept loop does when accepting fails, most often because the process ran out of file
 * descriptors ({@code EMFILE}, {@code ENFILE}): it waits a little longer after each failure in a
 * row ({@value #FIRST_PAUSE_MILLIS} ms doubling up to {@value #MAX_PAUSE_MILLIS} ms) and keeps
 * accepting, so it neither stops for good nor spins. A run of failures is logged once, when it
 * starts, and once more when a connection is accepted again. One instance per accept loop.
 */
public final class AcceptBackoff {

    /** The pause after the first failure of a run. */
    static final long FIRST_PAUSE_MILLIS = 5;
    /** The longest pause: a freed descriptor is used within a second. */
    static final long MAX_PAUSE_MILLIS = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(AcceptBackoff.class);

    private final String server;
    private long failures;
    private long pauseMillis;

    /** For the accept loop of {@code server}, named in the log. */
    public AcceptBackoff(String server) {
        this.server = server;
    }

    /**
     * Accepting failed with {@code cause}: logs it if it starts a run, then pauses the calling
     * (accept) thread. Returns early, with the interrupt flag set, if the thread is interrupted.
     */
    public void failed(Throwable cause) {
        try {
            TimeUnit.MILLISECONDS.sleep(nextPause(cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Accepting failed with {@code cause} in a loop that must not block (an event loop): logs it if
     * it starts a run, and returns how long the loop should stop accepting, in milliseconds.
     */
    public synchronized long nextPause(Throwable cause) {
        if (count(cause)) {
            pauseMillis = FIRST_PAUSE_MILLIS;
        } else {
            pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
        }
        return pauseMillis;
    }

    /**
     * Accepting failed with {@code cause} in a loop that pauses by itself: only counts it, and
     * logs it if it starts a run.
     */
    public synchronized void failedAndPaused(Throwable cause) {
        count(cause);
    }

    /** Counts a failure; logs it and returns true if it starts a run. */
    private boolean count(Throwable cause) {
        if (failures++ > 0) {
            return false;
        }
        LOG.warn("{}: accepting a connection failed ({}); it keeps trying, pausing up to {} ms between attempts,"
                + " until descriptors free up", server, cause.toString(), MAX_PAUSE_MILLIS);
        return true;
    }

    /** A connection was accepted: ends a run of failures, logging how long it was. */
    public void accepted() {
        long failed;
        synchronized (this) {
            failed = failures;
            failures = 0;
        }
        if (failed > 0) {
            LOG.info("{}: accepting connections again after {} failed attempts", server, failed);
        }
    }

    /** Failed attempts in the current run, 0 when the last attempt succeeded. */
    public synchronized long failures() {
        return failures;
    }
}
