package org.salgate.agent.stream;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import org.salgate.agent.core.Counts;
import org.salgate.model.Reading;
import org.salgate.wire.SharedMessage;
import org.salgate.wire.StreamData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stream of one command that many sessions share (a set-up with the {@code shared} flag): on each
 * tick it reads the sensor once, numbers the reading and wraps it in one {@link SharedMessage}, which
 * every running subscriber sends under its own slow-consumer policy, so that each codec encodes the
 * reading once for all of them.
 *
 * <p>Each subscriber is a {@link ServedStream} of its session with this stream's id. The ticks start
 * when the first subscriber starts and stop when the last subscriber, started or not, is gone; the
 * shared stream is then closed and a later set-up makes a new one.
 */
final class SharedStream {

    private static final Logger LOG = LoggerFactory.getLogger(SharedStream.class);

    /** What makes two set-ups the same shared stream: the command, its checked arguments and the interval. */
    record Key(String sensorId, String commandId, Map<String, String> arguments, long intervalMs) {
        Key {
            arguments = Map.copyOf(arguments);
        }
    }

    /** What came of a session asking to join. */
    enum Join { JOINED, JOINED_ALREADY, CLOSED }

    private final long id;
    private final Key key;
    private final StreamSource source;
    private final ScheduledExecutorService scheduler;
    private final StreamTotals totals;
    private final Consumer<SharedStream> onClosed;
    /** The started subscribers, read without a lock on every tick. */
    private final List<ServedStream> running = new CopyOnWriteArrayList<>();
    /** The sessions subscribed, started or not; guarded by {@code this}. */
    private final Set<Long> sessions = new HashSet<>();
    private boolean closed;
    private ScheduledFuture<?> ticks;
    /** Only touched by the ticks, which never overlap, and by the deliveries of deferred reads, one at a time. */
    private long nextSequence;
    private final PendingRead pending = new PendingRead();

    SharedStream(long id, Key key, StreamSource source, ScheduledExecutorService scheduler, StreamTotals totals,
                 Consumer<SharedStream> onClosed) {
        this.id = id;
        this.key = key;
        this.source = source;
        this.scheduler = scheduler;
        this.totals = totals;
        this.onClosed = onClosed;
    }

    long id() {
        return id;
    }

    Key key() {
        return key;
    }

    StreamSource source() {
        return source;
    }

    /** Subscribes a session, unless it is subscribed already or the stream has closed. */
    synchronized Join join(long sessionId) {
        if (closed) {
            return Join.CLOSED;
        }
        return sessions.add(sessionId) ? Join.JOINED : Join.JOINED_ALREADY;
    }

    /** A subscriber started: it gets the readings from the next tick on; the first one starts the ticks. */
    synchronized void started(ServedStream subscriber) {
        if (closed || !subscriber.isRunning()) {
            return; // it ended meanwhile, and left
        }
        running.add(subscriber);
        if (ticks == null) {
            source.started();
            try {
                ticks = Ticks.schedule(scheduler, this::tick, key.intervalMs(), source.deferred());
            } catch (RejectedExecutionException e) {
                LOG.debug("shared stream {} ({}) not started: the agent is stopping", id, source.label());
            }
        }
    }

    /** A subscriber ended; the last one to go closes the stream. */
    void left(ServedStream subscriber) {
        boolean wasTicking;
        synchronized (this) {
            running.remove(subscriber);
            sessions.remove(subscriber.sessionId());
            if (closed || !sessions.isEmpty()) {
                return;
            }
            closed = true;
            wasTicking = ticks != null;
            if (wasTicking) {
                ticks.cancel(false);
            }
        }
        if (wasTicking) {
            source.stopped();
        }
        onClosed.accept(this);
        if (LOG.isDebugEnabled()) {
            LOG.debug("shared stream {} ({}, {} ms) closed after {}", id, source.label(), key.intervalMs(),
                    Counts.of(nextSequence, "reading"));
        }
    }

    /** How many sessions are subscribed. */
    synchronized int subscribers() {
        return sessions.size();
    }

    private void tick() {
        if (running.isEmpty()) {
            return;
        }
        try {
            if (!source.deferred()) {
                publish(source.read());
            } else if (!pending.start(source, this::publish)) {
                totals.skipped(); // the device has not answered the previous tick yet
            }
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // A periodic task that throws is never run again: log and keep the stream alive.
            LOG.error("shared stream {} ({}) failed on a tick", id, source.label(), e);
        }
    }

    /** Numbers a reading and offers it to every running subscriber. */
    private void publish(Reading reading) {
        SharedMessage frame = new SharedMessage(new StreamData(id, reading.withSequence(nextSequence++)),
                totals.encodedCounter());
        for (ServedStream subscriber : running) {
            try {
                subscriber.offer(frame);
            } catch (RuntimeException e) {
                LOG.error("shared stream {} ({}) failed to offer a reading to session {}", id, source.label(),
                        subscriber.sessionId(), e);
            }
        }
    }
}
