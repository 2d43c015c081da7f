package org.salgate.transport.mina;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.service.IoProcessor;

/**
 * The executor of MINA processors' loops (a client's one processor, or a server's pool), which
 * knows whether a loop still runs, so that the processors are disposed only once none does.
 *
 * <p>Why: MINA's processor loop (2.2) ends once it has no session left, and on the way out it
 * forgets that it runs before it checks whether it may leave. A {@link QuietLoopProcessor#dispose()}
 * that comes in between finds no loop and starts a second one for the same processor; the first,
 * leaving while the processor is disposed, closes the selector under the second, which reports a
 * {@link java.nio.channels.ClosedSelectorException} with its stack trace to MINA's exception monitor
 * (a WARN in the log). A client closes its one session and disposes its processor right after, so
 * its close can land in that gap, over TLS about once in a thousand closes (docs/performance.md); a
 * server that stops closes its sessions and disposes its processors right after in the same way.
 * Disposing once the loops have left (they are woken for that, so that they leave at once rather
 * than at their select's timeout) leaves one loop per processor to do the disposing: the one
 * {@code dispose()} starts.
 *
 * <p>A {@link QuietLoopProcessor} built on this executor makes itself known to it as it is built
 * (MINA's processor pool builds its processors itself, by reflection), so that it can be woken.
 */
final class ProcessorLoops implements Executor {

    private static final long LOOK_AGAIN_MILLIS = 10;

    private final Executor pool;
    /** The processors whose loops run here. */
    private final List<QuietLoopProcessor> processors = new CopyOnWriteArrayList<>();
    /** Loops handed to the pool that have not returned yet; guarded by this. */
    private int running;

    ProcessorLoops(Executor pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** Called by {@code processor}'s constructor, when this is the executor it was given. */
    void serves(QuietLoopProcessor processor) {
        processors.add(processor);
    }

    @Override
    public void execute(Runnable loop) {
        synchronized (this) {
            running++;
        }
        try {
            pool.execute(() -> {
                try {
                    loop.run();
                } finally {
                    QuietLoopProcessor.loopLeftThisThread();
                    left();
                }
            });
        } catch (RuntimeException e) {
            left();
            throw e;
        }
    }

    private synchronized void left() {
        running--;
        notifyAll();
    }

    /** Whether a loop handed to this executor has not returned yet. */
    synchronized boolean running() {
        return running > 0;
    }

    /**
     * Disposes {@code processor}, whose loops run on this executor (a processor built on it, or a
     * pool of such processors), once none runs: loops with no session left are woken until they
     * have gone, for at most {@code graceMillis}, after which the processor is disposed anyway (a
     * loop that still has a session to serve disposes it itself). Call it from a thread of none of
     * the loops; it returns when the processor is disposed.
     */
    void disposeOnceLeft(IoProcessor<?> processor, long graceMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        boolean interrupted = false;
        synchronized (this) {
            while (running > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                for (QuietLoopProcessor p : processors) {
                    p.wakeLoop();
                }
                try {
                    wait(Math.max(1, Math.min(LOOK_AGAIN_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))));
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        }
        processor.dispose();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
