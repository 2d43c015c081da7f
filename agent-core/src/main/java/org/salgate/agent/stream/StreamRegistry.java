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
import java.util.function.Supplier;
import org.salgate.transport.Session;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
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
    private final Set<ServedStream> all = ConcurrentHashMap.newKeySet();
    private final Map<Long, Set<ServedStream>> bySession = new ConcurrentHashMap<>();
    private final Map<SharedStream.Key, SharedStream> shared = new ConcurrentHashMap<>();
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
        all.add(stream);
        mine.add(stream);
        return Optional.of(stream);
    }

    /**
     * Subscribes a session to the shared stream of a command, with these checked arguments, at this
     * interval (above 0), making it if there is none; it starts with {@link ServedStream#start()}.
     *
     * @param source makes the shared stream's source when it is new
     * @param policy the subscriber's slow-consumer policy, or null for the agent's default
     * @return the subscription, or empty when the session has {@code maxPerSession} streams already
     * @throws IllegalStateException when the session subscribes to that shared stream already
     */
    public Optional<ServedStream> subscribe(Session session, String sensorId, String commandId,
                                            Map<String, String> arguments, long intervalMs,
                                            Supplier<StreamSource> source, SlowConsumerPolicy policy,
                                            int maxPerSession) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("a shared stream needs an interval above 0 ms");
        }
        Set<ServedStream> mine = bySession.computeIfAbsent(session.id(), k -> ConcurrentHashMap.newKeySet());
        if (mine.size() >= maxPerSession) {
            return Optional.empty();
        }
        SharedStream.Key key = new SharedStream.Key(sensorId, commandId, arguments, intervalMs);
        while (true) {
            SharedStream stream = shared.computeIfAbsent(key, k -> new SharedStream(nextId.getAndIncrement(), k,
                    source.get(), scheduler, totals, closed -> shared.remove(closed.key(), closed)));
            switch (stream.join(session.id())) {
                case JOINED -> {
                    ServedStream subscriber = new ServedStream(session, stream, slowConsumers.policyFor(policy),
                            slowConsumers, scheduler, this::forget, totals);
                    all.add(subscriber);
                    mine.add(subscriber);
                    return Optional.of(subscriber);
                }
                case JOINED_ALREADY -> throw new IllegalStateException("this connection subscribes to shared stream "
                        + stream.id() + " of that command already");
                case CLOSED -> shared.remove(key, stream); // its last subscriber just left: make a new one
                default -> throw new AssertionError();
            }
        }
    }

    /** A stream of this session, if it exists. */
    public Optional<ServedStream> find(long sessionId, long streamId) {
        Set<ServedStream> mine = bySession.get(sessionId);
        if (mine == null) {
            return Optional.empty();
        }
        return mine.stream().filter(s -> s.id() == streamId).findFirst();
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

    /** How many streams exist, each subscriber of a shared stream counted. */
    public int size() {
        return all.size();
    }

    /** How many shared streams exist. */
    public int sharedStreams() {
        return shared.size();
    }

    /**
     * How many stream frames were encoded since the agent started: one per reading sent on a
     * stream of a client's own, one per reading and codec on a shared stream, however many
     * subscribers it went to. Frames that no codec encodes (the HTTP transport's JSON, in-process
     * sessions) are not counted.
     */
    public long framesEncoded() {
        return totals.encodedFrames();
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
        for (ServedStream s : all) {
            if (s.sensorId().equals(sensorId)) {
                s.end(reason);
            }
        }
    }

    /** Ends every stream, telling their clients why. */
    public void endAll(String reason) {
        for (ServedStream s : all) {
            s.end(reason);
        }
    }

    private void forget(ServedStream stream) {
        all.remove(stream);
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
