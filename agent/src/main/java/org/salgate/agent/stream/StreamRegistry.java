package org.salgate.agent.stream;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.Session;
import org.salgate.wire.SlowConsumerPolicy;
import org.salgate.wire.StreamCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every stream on the agent, by id and by session, and the one scheduler that drives them: a
 * small {@link ScheduledThreadPoolExecutor} whose queue holds at most one task per stream.
 * Plugin reads run on the scheduler's threads, so a plugin that blocks delays the streams behind it.
 */
public final class StreamRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamRegistry.class);

    private final ScheduledThreadPoolExecutor scheduler;
    private final SlowConsumerSettings slowConsumers;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, ServedStream> byId = new ConcurrentHashMap<>();
    private final Map<Long, Set<ServedStream>> bySession = new ConcurrentHashMap<>();
    private final StreamTotals totals = new StreamTotals();

    /** @param threads the scheduler's threads */
    public StreamRegistry(int threads) {
        this(threads, SlowConsumerSettings.DEFAULTS);
    }

    /**
     * @param threads the scheduler's threads
     * @param slowConsumers how streams treat clients that read slower than they produce
     */
    public StreamRegistry(int threads, SlowConsumerSettings slowConsumers) {
        this.slowConsumers = slowConsumers;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "sal-stream-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.scheduler = new ScheduledThreadPoolExecutor(threads, factory);
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * Sets up a stream for a session; it starts with {@link ServedStream#start()}.
     *
     * @param policy the slow-consumer policy the client chose, or null for the agent's default
     * @return the stream, or empty when the session has {@code maxPerSession} streams already
     */
    public Optional<ServedStream> create(Session session, StreamSource source, long intervalMs,
                                         SlowConsumerPolicy policy, int maxPerSession) {
        Set<ServedStream> mine = bySession.computeIfAbsent(session.id(), k -> ConcurrentHashMap.newKeySet());
        if (mine.size() >= maxPerSession) {
            return Optional.empty();
        }
        ServedStream stream = new ServedStream(nextId.getAndIncrement(), session, source, intervalMs,
                slowConsumers.policyFor(policy), slowConsumers, scheduler, this::forget, totals);
        byId.put(stream.id(), stream);
        mine.add(stream);
        return Optional.of(stream);
    }

    /** A stream of this session, if it exists. */
    public Optional<ServedStream> find(long sessionId, long streamId) {
        ServedStream s = byId.get(streamId);
        return s != null && s.sessionId() == sessionId ? Optional.of(s) : Optional.empty();
    }

    /** The streams of a session. */
    public List<ServedStream> ofSession(long sessionId) {
        Set<ServedStream> mine = bySession.get(sessionId);
        return mine == null ? List.of() : List.copyOf(mine);
    }

    /** Whether a session has a stream. */
    public boolean hasStreams(long sessionId) {
        Set<ServedStream> mine = bySession.get(sessionId);
        return mine != null && !mine.isEmpty();
    }

    /** How many streams exist. */
    public int size() {
        return byId.size();
    }

    /**
     * What became of the readings of every stream so far, ended ones included: delivered, skipped
     * and dropped (see {@link StreamCounts}). Each figure only grows.
     */
    public StreamCounts totals() {
        return totals.snapshot();
    }

    /** The session can take frames again. */
    public void writable(long sessionId) {
        Set<ServedStream> mine = bySession.get(sessionId);
        if (mine != null) {
            for (ServedStream s : mine) {
                s.writable();
            }
        }
    }

    /** The session is gone: its streams end silently and are forgotten. */
    public void discardSession(long sessionId) {
        Set<ServedStream> mine = bySession.remove(sessionId);
        if (mine != null) {
            for (ServedStream s : mine) {
                s.discard();
            }
        }
    }

    /** Ends every stream of a sensor, telling their clients why. */
    public void endForSensor(String sensorId, String reason) {
        for (ServedStream s : byId.values()) {
            if (s.sensorId().equals(sensorId)) {
                s.end(reason);
            }
        }
    }

    /** Ends every stream, telling their clients why. */
    public void endAll(String reason) {
        for (ServedStream s : byId.values()) {
            s.end(reason);
        }
    }

    private void forget(ServedStream stream) {
        byId.remove(stream.id());
        Set<ServedStream> mine = bySession.get(stream.sessionId());
        if (mine != null) {
            mine.remove(stream);
        }
    }

    /** Ends every stream and stops the scheduler. */
    @Override
    public void close() {
        endAll("the agent is stopping");
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("stream threads did not stop within 2 s; interrupting them");
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
