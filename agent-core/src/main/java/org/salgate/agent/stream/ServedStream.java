package org.salgate.agent.stream;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.salgate.agent.core.Counts;
import org.salgate.transport.Session;
import org.salgate.model.Reading;
import org.salgate.wire.SharedMessage;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.transport.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One client's stream of one sensor command, with the slow-consumer policy its client chose.
 *
 * <p>Backpressure: a reading is sent only while the session is writable, so a slow client costs
 * at most its session's outbound bound. What happens to the readings that fall due while it is not:
 * <ul>
 *   <li>{@link SlowConsumerPolicy#BLOCK}: a periodic stream skips those ticks and counts them;</li>
 *   <li>{@link SlowConsumerPolicy#DROP_OLDEST}: a periodic stream reads on time into a ring of
 *       {@link SlowConsumerSettings#ringReadings()}; when full, the oldest is dropped and counted. The
 *       ring is sent, oldest first, as soon as the session is writable. Sequence numbers are given
 *       when a reading is taken, so each drop shows the client a jump;</li>
 *   <li>{@link SlowConsumerPolicy#DISCONNECT}: as block, and once the session has been unwritable for
 *       {@link SlowConsumerSettings#disconnectAfter()}, the session is closed at once, dropping what
 *       is queued for it, with the reason as the cause of the close.</li>
 * </ul>
 * A stream at interval 0 produces only as fast as the client takes readings: it sends bounded
 * batches while the session is writable, yields the thread between batches, and parks until the
 * session's writability listener calls {@link #writable()}; nothing falls due while it is parked.
 *
 * <p>A subscriber of a {@link SharedStream} reads nothing itself: its shared stream offers it each
 * reading, numbered and wrapped once for all subscribers, and the policy above decides what becomes
 * of it. Its sequence numbers are the shared stream's, so a reading it skips shows as a gap too.
 *
 * <p>Readings are sent under a lock that {@link #stop()} also takes: once {@code stop} returns, no
 * reading of this stream is sent any more.
 */
public final class ServedStream {

    /** Frames an interval-0 stream sends before yielding its thread. */
    static final int BATCH = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ServedStream.class);
    /** Lines a client can cause with every stream it opens: at most one a second per kind. */
    private static final RateLimitedLog PEER_LOG = new RateLimitedLog(LOG, Level.INFO);

    private enum State { SET_UP, RUNNING, ENDED }

    private final long id;
    private final Session session;
    private final StreamSource source;
    private final long intervalMs;
    private final SlowConsumerPolicy policy;
    private final SlowConsumerSettings settings;
    private final ScheduledExecutorService scheduler;
    private final Consumer<ServedStream> onEnded;
    private final StreamTotals totals;
    /** The shared stream it subscribes to, or null when it reads its own source. */
    private final SharedStream shared;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicBoolean parked = new AtomicBoolean();
    private final AtomicLong stalls = new AtomicLong();
    /** Readings taken and not yet sent (drop-oldest); guarded by {@link #lock}. */
    private final ArrayDeque<SharedMessage> ring = new ArrayDeque<>();
    private volatile State state = State.SET_UP;
    private long nextSequence;
    private long delivered;
    private long skipped;
    private long dropped;
    /** When the session was first seen unwritable in the current spell, else 0; guarded by {@link #lock}. */
    private long unwritableSinceNanos;
    private ScheduledFuture<?> ticks;
    private final PendingRead pending = new PendingRead();

    ServedStream(long id, Session session, StreamSource source, long intervalMs, SlowConsumerPolicy policy,
                 SlowConsumerSettings settings, ScheduledExecutorService scheduler, Consumer<ServedStream> onEnded,
                 StreamTotals totals) {
        this(id, session, source, intervalMs, policy, settings, scheduler, onEnded, totals, null);
    }

    /** A subscriber of {@code shared}, with its id, source and interval. */
    ServedStream(Session session, SharedStream shared, SlowConsumerPolicy policy, SlowConsumerSettings settings,
                 ScheduledExecutorService scheduler, Consumer<ServedStream> onEnded, StreamTotals totals) {
        this(shared.id(), session, shared.source(), shared.key().intervalMs(), policy, settings, scheduler, onEnded,
                totals, shared);
    }

    private ServedStream(long id, Session session, StreamSource source, long intervalMs, SlowConsumerPolicy policy,
                         SlowConsumerSettings settings, ScheduledExecutorService scheduler,
                         Consumer<ServedStream> onEnded, StreamTotals totals, SharedStream shared) {
        this.shared = shared;
        this.id = id;
        this.session = session;
        this.source = source;
        this.intervalMs = intervalMs;
        this.policy = policy;
        this.settings = settings;
        this.scheduler = scheduler;
        this.onEnded = onEnded;
        this.totals = totals;
    }

    /** The stream id: unique on the agent, or its shared stream's id, the same for every subscriber. */
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

    /** Whether it subscribes to a shared stream. */
    public boolean isShared() {
        return shared != null;
    }

    /** Its slow-consumer policy. */
    public SlowConsumerPolicy policy() {
        return policy;
    }

    /** How many frames it has sent. */
    public long sent() {
        return counts().delivered();
    }

    /** What became of its readings so far: delivered, skipped, dropped. */
    public StreamCounts counts() {
        lock.lock();
        try {
            return new StreamCounts(delivered, skipped, dropped);
        } finally {
            lock.unlock();
        }
    }

    /** How many periodic ticks it skipped because the client was not taking frames. */
    public long skippedTicks() {
        return counts().skipped();
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
            if (shared == null) {
                source.started();
                try {
                    if (intervalMs > 0) {
                        ticks = Ticks.schedule(scheduler, this::tick, intervalMs, source.deferred());
                    } else {
                        scheduler.execute(this::drain);
                    }
                } catch (RejectedExecutionException e) {
                    finish(null);
                    return false;
                }
            }
        } finally {
            lock.unlock();
        }
        if (shared != null) {
            shared.started(this); // outside the lock: the shared stream's ticks take it to offer readings
        }
        return true;
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
            dropped += ring.size(); // taken and never to be sent
            totals.dropped(ring.size());
            ring.clear();
            if (reasonToSend != null) {
                session.send(new StreamEnded(id, reasonToSend, new StreamCounts(delivered, skipped, dropped)));
            }
        } finally {
            lock.unlock();
        }
        if (shared != null) {
            shared.left(this);
        } else if (wasRunning) {
            source.stopped();
        }
        onEnded.accept(this);
        StreamCounts counts = counts();
        long waits = stalls.get();
        if (counts.lostAny() || waits > 0) {
            PEER_LOG.log("slow", "stream {} ({}, {} ms, {}) of session {} ended after {}; {} skipped, {} dropped"
                    + " and {} because the client was slow", id, source.label(), intervalMs, policy, session.id(),
                    Counts.of(counts.delivered(), "reading"), counts.skipped(), counts.dropped(),
                    Counts.of(waits, "wait"));
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("stream {} ({}) of session {} ended after {}", id, source.label(), session.id(),
                    Counts.of(sent(), "reading"));
        }
        return true;
    }

    /**
     * The session can take frames again: an interval-0 stream that was parked resumes, and a
     * drop-oldest stream sends what its ring holds.
     */
    public void writable() {
        if (intervalMs == 0) {
            if (parked.compareAndSet(true, false)) {
                resubmit();
            }
        } else if (policy == SlowConsumerPolicy.DROP_OLDEST) {
            try {
                scheduler.execute(this::sendRing);
            } catch (RejectedExecutionException e) {
                // the agent is stopping; the stream ends with it
            }
        }
    }

    private void tick() {
        try {
            if (state != State.RUNNING) {
                return;
            }
            if (source.deferred()) {
                deferredTick();
            } else if (policy == SlowConsumerPolicy.DROP_OLDEST) {
                takeIntoRing(source.read());
                sendRing();
            } else if (session.isWritable()) {
                send(source.read());
            } else {
                skip();
            }
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // A periodic task that throws is never run again: log and keep the stream alive (an
            // assertion of a library, with -ea, included).
            LOG.error("stream {} ({}) failed on a tick", id, source.label(), e);
        }
    }

    /**
     * A tick of a deferred source: the read is handed to it and the reading sent (or taken into the
     * ring) when it comes; a tick whose previous read is still pending is skipped and counted.
     */
    private void deferredTick() {
        boolean started;
        if (policy == SlowConsumerPolicy.DROP_OLDEST) {
            started = pending.start(source, reading -> {
                takeIntoRing(reading);
                sendRing();
            });
        } else if (session.isWritable()) {
            started = pending.start(source, this::send);
        } else {
            skip();
            return;
        }
        if (!started) {
            lock.lock();
            try {
                skipped++;
                totals.skipped();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A reading of its shared stream, numbered and wrapped for every subscriber: sent, kept in the
     * ring or skipped as its policy says. Called on the shared stream's tick.
     */
    void offer(SharedMessage frame) {
        if (state != State.RUNNING) {
            return;
        }
        if (policy == SlowConsumerPolicy.DROP_OLDEST) {
            lock.lock();
            try {
                if (state == State.RUNNING) {
                    keep(frame);
                }
            } finally {
                lock.unlock();
            }
            sendRing();
        } else if (session.isWritable()) {
            send(frame);
        } else {
            skip();
        }
    }

    /** A tick found the session unwritable (block, disconnect): counted, and a disconnect stream may end. */
    private void skip() {
        boolean disconnect = false;
        lock.lock();
        try {
            if (state != State.RUNNING) {
                return;
            }
            totals.skipped();
            if (skipped++ == 0) {
                LOG.debug("stream {} ({}) skips ticks: session {} is not taking frames", id, source.label(),
                        session.id());
            }
            disconnect = unwritableTooLong();
        } finally {
            lock.unlock();
        }
        if (disconnect) {
            disconnect();
        }
    }

    /** Whether a disconnect stream's session has been unwritable for its limit; call under the lock. */
    private boolean unwritableTooLong() {
        if (policy != SlowConsumerPolicy.DISCONNECT) {
            return false;
        }
        long now = System.nanoTime();
        if (unwritableSinceNanos == 0) {
            unwritableSinceNanos = now;
            return false;
        }
        return now - unwritableSinceNanos >= settings.disconnectAfter().toNanos();
    }

    private void disconnect() {
        String reason = "the client did not read for " + settings.disconnectAfter().toMillis()
                + " ms, so its session is closed (slow-consumer policy disconnect)";
        PEER_LOG.log("disconnect", "stream {} ({}) of session {} ({}): {}", id, source.label(), session.id(),
                session.remoteAddress(), reason);
        finish(null); // a StreamEnded would wait behind what the client is not reading
        session.closeNow(reason);
    }

    /** Numbers a reading into the ring, dropping the oldest when it is full. */
    private void takeIntoRing(Reading reading) {
        lock.lock();
        try {
            if (state != State.RUNNING) {
                return;
            }
            keep(numbered(reading));
        } finally {
            lock.unlock();
        }
    }

    /** Puts a frame in the ring, dropping the oldest when it is full; call under the lock. */
    private void keep(SharedMessage frame) {
        ring.addLast(frame);
        if (ring.size() > settings.ringReadings()) {
            ring.removeFirst();
            dropped++;
            totals.dropped(1);
        }
    }

    /** A reading of its own source with the next sequence number, as a frame; call under the lock. */
    private SharedMessage numbered(Reading reading) {
        return new SharedMessage(new StreamData(id, reading.withSequence(nextSequence++)), totals.encodedCounter());
    }

    /** Sends the ring's readings, oldest first, while the session takes them. */
    private void sendRing() {
        lock.lock();
        try {
            while (state == State.RUNNING && !ring.isEmpty() && session.isWritable()) {
                session.send(ring.removeFirst());
                delivered++;
                totals.delivered();
            }
        } finally {
            lock.unlock();
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
        if (policy == SlowConsumerPolicy.DISCONNECT) {
            long stall = stalls.get();
            try {
                scheduler.schedule(() -> {
                    if (parked.get() && stalls.get() == stall && !session.isWritable()) {
                        disconnect();
                    }
                }, settings.disconnectAfter().toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the agent is stopping
            }
        }
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
            if (state == State.RUNNING) {
                deliver(numbered(reading));
            }
        } finally {
            lock.unlock();
        }
    }

    private void send(SharedMessage frame) {
        lock.lock();
        try {
            if (state == State.RUNNING) {
                deliver(frame);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends a frame; call under the lock, while running. */
    private void deliver(SharedMessage frame) {
        unwritableSinceNanos = 0;
        session.send(frame);
        delivered++;
        totals.delivered();
    }
}
