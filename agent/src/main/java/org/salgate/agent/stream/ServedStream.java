package org.salgate.agent.stream;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.salgate.transport.Session;
import org.salgate.wire.Reading;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's stream of one sensor command.
 *
 * <p>Backpressure: a frame is produced only while the session is writable, so a slow client costs
 * at most the transport's high-water mark. A periodic stream skips the ticks that find the session
 * unwritable (and counts them); a stream at interval 0 sends bounded batches while the session is
 * writable, yields the thread between batches, and parks until the session's writability listener
 * calls {@link #writable()}. Sequence numbers are given when a frame is sent, so they have no gaps.
 *
 * <p>Frames are sent under a lock that {@link #stop()} also takes: once {@code stop} returns, no
 * frame of this stream is sent any more.
 */
public final class ServedStream {

    /** Frames an interval-0 stream sends before yielding its thread. */
    static final int BATCH = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ServedStream.class);

    private enum State { SET_UP, RUNNING, ENDED }

    private final long id;
    private final Session session;
    private final StreamSource source;
    private final long intervalMs;
    private final ScheduledExecutorService scheduler;
    private final Consumer<ServedStream> onEnded;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicBoolean parked = new AtomicBoolean();
    private final AtomicLong skippedTicks = new AtomicLong();
    private final AtomicLong stalls = new AtomicLong();
    private volatile State state = State.SET_UP;
    private long nextSequence;
    private ScheduledFuture<?> ticks;

    ServedStream(long id, Session session, StreamSource source, long intervalMs, ScheduledExecutorService scheduler,
                 Consumer<ServedStream> onEnded) {
        this.id = id;
        this.session = session;
        this.source = source;
        this.intervalMs = intervalMs;
        this.scheduler = scheduler;
        this.onEnded = onEnded;
    }

    /** The stream id, unique on the agent. */
    public long id() {
        return id;
    }

    /** The id of the session it belongs to. */
    public long sessionId() {
        return session.id();
    }

    /** The sensor it reads. */
    public String sensorId() {
        return source.sensorId();
    }

    /** Its interval in milliseconds; 0 is as fast as the client takes frames. */
    public long intervalMs() {
        return intervalMs;
    }

    /** How many frames it has sent. */
    public long sent() {
        lock.lock();
        try {
            return nextSequence;
        } finally {
            lock.unlock();
        }
    }

    /** How many periodic ticks it skipped because the client was not taking frames. */
    public long skippedTicks() {
        return skippedTicks.get();
    }

    /** How many times an interval-0 stream waited for the client to take frames. */
    public long stalls() {
        return stalls.get();
    }

    /** Whether it is producing frames. */
    public boolean isRunning() {
        return state == State.RUNNING;
    }

    /**
     * Starts producing frames.
     *
     * @return false when it was started or ended before
     */
    public boolean start() {
        return start(() -> { });
    }

    /**
     * Starts producing frames, running {@code beforeFirstFrame} (such as sending the answer to the
     * start request) before any frame can be sent, so that no frame overtakes it.
     *
     * @return false when it was started or ended before; {@code beforeFirstFrame} did not run then
     */
    public boolean start(Runnable beforeFirstFrame) {
        lock.lock();
        try {
            if (state != State.SET_UP) {
                return false;
            }
            state = State.RUNNING;
            beforeFirstFrame.run();
            source.started();
            try {
                if (intervalMs > 0) {
                    ticks = scheduler.scheduleAtFixedRate(this::tick, 0, intervalMs, TimeUnit.MILLISECONDS);
                } else {
                    scheduler.execute(this::drain);
                }
            } catch (RejectedExecutionException e) {
                finish(null);
                return false;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops it at the client's request; no frame follows once this returns.
     *
     * @return false when it had ended already
     */
    public boolean stop() {
        return finish(null);
    }

    /** Ends it on the agent's side, telling the client with a {@link StreamEnded}. */
    public void end(String reason) {
        finish(reason);
    }

    /** Ends it without telling anyone (its session is gone). */
    public void discard() {
        finish(null);
    }

    private boolean finish(String reasonToSend) {
        boolean wasRunning;
        lock.lock();
        try {
            if (state == State.ENDED) {
                return false;
            }
            wasRunning = state == State.RUNNING;
            state = State.ENDED;
            if (ticks != null) {
                ticks.cancel(false);
            }
            if (reasonToSend != null) {
                session.send(new StreamEnded(id, reasonToSend));
            }
        } finally {
            lock.unlock();
        }
        if (wasRunning) {
            source.stopped();
        }
        onEnded.accept(this);
        long skipped = skippedTicks.get();
        long waits = stalls.get();
        if (skipped > 0 || waits > 0) {
            LOG.info("stream {} ({}, {} ms) of session {} ended after {} readings; {} ticks skipped and {} waits "
                    + "because the client was slow", id, source.label(), intervalMs, session.id(), sent(), skipped,
                    waits);
        } else {
            LOG.debug("stream {} ({}) of session {} ended after {} readings", id, source.label(), session.id(), sent());
        }
        return true;
    }

    /** The session can take frames again: an interval-0 stream that was parked resumes. */
    public void writable() {
        if (intervalMs == 0 && parked.compareAndSet(true, false)) {
            resubmit();
        }
    }

    private void tick() {
        try {
            if (state != State.RUNNING) {
                return;
            }
            if (!session.isWritable()) {
                if (skippedTicks.incrementAndGet() == 1) {
                    LOG.debug("stream {} ({}) skips ticks: session {} is not taking frames", id, source.label(),
                            session.id());
                }
                return;
            }
            send(source.read());
        } catch (RuntimeException | LinkageError e) {
            // A periodic task that throws is never run again: log and keep the stream alive.
            LOG.error("stream {} ({}) failed on a tick", id, source.label(), e);
        }
    }

    private void drain() {
        try {
            for (int i = 0; i < BATCH; i++) {
                if (state != State.RUNNING) {
                    return;
                }
                if (!session.isWritable()) {
                    park();
                    return;
                }
                send(source.read());
            }
            resubmit();
        } catch (RuntimeException | LinkageError e) {
            LOG.error("stream {} ({}) failed; it is ended", id, source.label(), e);
            end("the agent failed producing this stream; see its log");
        }
    }

    private void park() {
        stalls.incrementAndGet();
        parked.set(true);
        // The session may have turned writable between the check and parking: its listener would
        // then have found nothing parked.
        if (session.isWritable() && parked.compareAndSet(true, false)) {
            resubmit();
        }
    }

    private void resubmit() {
        if (state != State.RUNNING) {
            return;
        }
        try {
            scheduler.execute(this::drain);
        } catch (RejectedExecutionException e) {
            discard();
        }
    }

    private void send(Reading reading) {
        lock.lock();
        try {
            if (state != State.RUNNING) {
                return;
            }
            session.send(new StreamData(id, reading.withSequence(nextSequence++)));
        } finally {
            lock.unlock();
        }
    }
}
