package org.salgate.transport.mina;

import java.io.IOException;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.Executor;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MINA's NIO processor, except that its loop does not wake its own selector, nor read a socket
 * again that it has just found empty.
 *
 * <p>One pass of MINA's processor loop (2.2) selects, takes in new sessions and traffic-mask
 * changes, reads every ready session and hands what it read to the handler, flushes every session
 * scheduled for flush (until none is left), checks idle sessions, and removes the closed ones.
 * Every write schedules its session for flush and wakes the selector, even when it is made by the
 * handler on the loop's own thread, as the agent's inline answers are. That wake-up buys nothing:
 * the flush follows in the same pass. It costs a write to the selector's wake-up descriptor, and
 * makes the next select return at once, with a read to drain that descriptor and a pass with
 * nothing to do: per answer, about three system calls and a loop pass more than the answer needs
 * (docs/performance.md counts them).
 *
 * <p>So a wake-up asked for on the loop's own thread, from the end of its select until the loop
 * is past its flush, is skipped: what the loop would wake up for (a flush, or a close) is done
 * later in the same pass. The loop is past its flush once it checks idle sessions or starts to
 * dispose ({@link #allSessions}, which MINA calls only there) or removes a closed session
 * ({@link #destroy}, before the handler hears of the close); a write or close made from then on
 * wakes the selector as before. A wake-up asked for on any other thread is MINA's own. Nothing in
 * this transport changes a session's traffic mask, which a pass takes in before it reads; should
 * that change, the wake-up must not be skipped for it.
 *
 * <p>MINA also reads a ready socket until a read returns nothing, so every request costs one read
 * more, which finds the socket empty. A read that fills less than the room it was given has taken
 * all the socket held, so the next read of that session in the same pass returns 0 without the
 * system call. Nothing is lost: the selector reports readiness as long as bytes wait (it is
 * level-triggered), so bytes that arrive meanwhile, or the peer's end of stream, are read in the
 * next pass.
 *
 * <p>A read or write that fails on a session's socket (a peer that reset its connection, or went
 * while it was written to) closes the session and reaches its handler with the failure, without
 * the ERROR line MINA's loop logs for each: the transport's handler logs it, at DEBUG for a peer's
 * doing. Bytes read in the same pass before a failed read are still handed on, after it (MINA's
 * loop drops them); a failed write's future fails (MINA's loop leaves it undone).
 *
 * <p>Work can be put off to the loop's next pass ({@link #atNextPass}): it runs on the loop's thread
 * as that pass starts, before the loop selects, and the loop then selects without waiting, so that
 * it reads every ready session, and flushes what the work wrote, in the same pass. A server's
 * {@link IoWriter} writes a stream's next batch there: written inside MINA's flush, a stream whose
 * client reads as fast as it is written would keep the flush going and the loop from reading anyone;
 * written from another thread, each batch would cost two thread wake-ups.
 */
public class QuietLoopProcessor extends NioProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(QuietLoopProcessor.class);
    /** The processor whose loop this thread runs, set as the loop selects. */
    private static final ThreadLocal<QuietLoopProcessor> RUNNING = new ThreadLocal<>();

    /**
     * Puts work off to the next pass of the loop that runs on the calling thread
     * ({@link #atNextPass}), or runs it at once on a thread that runs no loop.
     */
    static final Executor NEXT_PASS = work -> {
        QuietLoopProcessor processor = onThisThread();
        if (processor != null) {
            processor.atNextPass(work);
        } else {
            work.run();
        }
    };

    /** The thread that runs the loop, set as it selects. */
    private volatile Thread loop;
    /** Written and read by the loop's thread only: whether a wake-up asked for now would be skipped. */
    private boolean flushFollows;
    /** Written and read by the loop's thread only: the session whose last read was short. */
    private NioSession drained;
    /** Touched by the loop's thread only: the work for the next pass ({@link #atNextPass}). */
    private final ArrayDeque<Runnable> nextPass = new ArrayDeque<>();
    /** Written by the loop's thread only; read by tests. */
    private volatile long skipped;
    private volatile long wokenFromLoop;
    private volatile long emptyReadsSkipped;
    private volatile long socketFailures;
    private volatile long passesWithWork;

    /**
     * The constructor {@link org.apache.mina.core.service.SimpleIoProcessorPool} calls. On a
     * {@link ProcessorLoops}, the processor makes itself known to it, to be woken when disposed.
     */
    public QuietLoopProcessor(Executor executor, SelectorProvider provider) {
        super(executor, provider);
        if (executor instanceof ProcessorLoops loops) {
            loops.serves(this);
        }
    }

    /** The one select MINA's loop calls; until the loop has run one, no wake-up is skipped. */
    @Override
    protected final int select(long timeout) throws Exception {
        loop = Thread.currentThread();
        RUNNING.set(this);
        drained = null;
        if (!nextPass.isEmpty()) {
            flushFollows = true; // what the work writes is flushed in this pass: no wake-up for it
            runNextPass();
            int selected = selectNow();
            if (selected == 0) {
                wakeupCalled.set(true); // a select that does not wait is no sign of the JDK's epoll spin
            }
            return selected;
        }
        flushFollows = false;
        long millis = beforeSelect(timeout);
        int selected = super.select(millis);
        if (selected == 0 && millis < timeout) {
            // MINA takes a select that returns early with nothing, unwoken, for the JDK's epoll spin
            // and replaces the selector after a few; one shortened on purpose is neither.
            wakeupCalled.set(true);
        }
        flushFollows = true;
        return selected;
    }

    /**
     * Called by the loop's thread as it is about to select, once the previous pass is done (a
     * wake-up asked for here is made); returns how many milliseconds to select for, at least 1 and
     * at most {@code timeout}. This class selects for {@code timeout}.
     */
    protected long beforeSelect(long timeout) throws Exception {
        return timeout;
    }

    /**
     * The processor whose loop runs on the calling thread, or null: on a processor's loop (in a
     * handler's {@code messageSent}, say), the processor of the session at hand.
     */
    static QuietLoopProcessor onThisThread() {
        QuietLoopProcessor processor = RUNNING.get();
        return processor != null && processor.onLoopThread() ? processor : null;
    }

    /** Called as a loop leaves its thread, which then runs no loop until it selects again. */
    static void loopLeftThisThread() {
        RUNNING.remove();
    }

    /**
     * Runs {@code work} on the loop's thread as the loop's next pass starts, before the loop selects
     * (the class comment says why). Call it on the loop's thread.
     */
    final void atNextPass(Runnable work) {
        if (!onLoopThread()) {
            throw new IllegalStateException("work for a MINA processor's next pass must be given on its loop's thread");
        }
        nextPass.add(work);
    }

    /** Runs the work given before this pass, not what it gives in turn (that waits for the next). */
    private void runNextPass() {
        passesWithWork++;
        for (int n = nextPass.size(); n > 0; n--) {
            Runnable work = nextPass.poll();
            try {
                work.run();
            } catch (RuntimeException e) {
                // MINA's loop would log it and pause for a second, every session with it
                LOG.warn("work put off to a MINA processor's next pass failed", e);
            }
        }
    }

    private int selectNow() throws IOException {
        selectorLock.readLock().lock();
        try {
            return selector.selectNow();
        } finally {
            selectorLock.readLock().unlock();
        }
    }

    /** How many passes started with work put off to them; read by tests. */
    long passesWithWork() {
        return passesWithWork;
    }

    /** Wakes the loop's select, on any thread: what {@link #wakeup} skips, this does not. */
    final void wakeLoop() {
        super.wakeup();
    }

    /** Whether the calling thread is the one running the loop. */
    protected final boolean onLoopThread() {
        return Thread.currentThread() == loop;
    }

    @Override
    protected void wakeup() {
        if (Thread.currentThread() == loop) {
            if (flushFollows) {
                skipped++;
                return;
            }
            wokenFromLoop++;
        }
        super.wakeup();
    }

    /** How many wake-ups the loop's own thread asked for while a flush was still to come in its pass. */
    long wakeupsSkipped() {
        return skipped;
    }

    /** How many reads returned 0 without a system call, after a short read of the same session. */
    long emptyReadsSkipped() {
        return emptyReadsSkipped;
    }

    /** How many reads and writes failed on a session's socket, and closed the session here. */
    long socketFailures() {
        return socketFailures;
    }

    /** How many wake-ups the loop's own thread asked for once past its flush, and made. */
    long wakeupsFromLoopMade() {
        return wokenFromLoop;
    }

    @Override
    protected int read(NioSession session, IoBuffer buffer) throws Exception {
        if (session == drained) {
            drained = null;
            emptyReadsSkipped++;
            return 0;
        }
        int room = buffer.remaining();
        int read;
        try {
            read = super.read(session, buffer);
        } catch (IOException e) {
            drained = null;
            socketFailed(session, e);
            return 0; // what this pass read before is delivered; the session closes at the pass's end
        }
        drained = read > 0 && read < room ? session : null;
        return read;
    }

    /**
     * A write that fails on the session's socket (its peer has gone, say) closes the session with
     * the failure, as a failed read does here. MINA's loop would log an ERROR line for it, close
     * the session at once without telling the filter chain why, and leave the write's future
     * forever undone; here the handler hears the failure, and the write's future fails with it.
     */
    @Override
    protected int write(NioSession session, IoBuffer buffer, int length) throws IOException {
        try {
            return super.write(session, buffer, length);
        } catch (IOException e) {
            WriteRequest failed = session.getCurrentWriteRequest(); // the one being written
            if (failed != null) {
                failed.getFuture().setException(e);
            }
            socketFailed(session, e);
            return 0;
        }
    }

    /**
     * A read or write that failed on the session's socket (its peer reset the connection, say):
     * closes the session and tells its filter chain, as MINA's loop does with a failed read, whose
     * handler reports it (the transport's, at DEBUG when the failure is a peer's doing). MINA's loop
     * would also log one ERROR line of its own for each, for every peer that resets or goes; that
     * line is left out.
     */
    private void socketFailed(NioSession session, IOException failure) {
        socketFailures++;
        session.closeNow();
        session.getFilterChain().fireExceptionCaught(failure);
    }

    @Override
    protected Iterator<NioSession> allSessions() {
        pastFlush();
        return super.allSessions();
    }

    @Override
    protected void destroy(NioSession session) throws Exception {
        pastFlush();
        super.destroy(session);
    }

    private void pastFlush() {
        if (Thread.currentThread() == loop) {
            flushFollows = false;
        }
    }
}
