package org.salgate.agent.session;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.salgate.agent.core.Counts;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The budget of a transport's sessions, the same on every transport: it stands between the
 * transport and the agent's handler, and
 * <ul>
 *   <li>serves at most {@link ServerOptions.Limits#maxSessions()} sessions at once: a connection past
 *       it never reaches the agent; its hello is answered {@link ErrorCode#OVERLOADED} ("the agent
 *       serves its maximum of N sessions") and it is closed;</li>
 *   <li>closes a connection that has not sent its hello within {@link ServerOptions.Limits#helloTimeout()};</li>
 *   <li>when {@link ServerOptions.Limits#idleTimeout()} is set, closes a session that sent nothing for
 *       that long and has no stream, no event subscription and no request in flight;</li>
 *   <li>holds every connection to frames of at most {@link #PRE_HELLO_MAX_FRAME_BYTES} until the agent
 *       accepts its hello ({@link Session#limitFramesUntilHello}).</li>
 * </ul>
 * Each closing is logged at INFO with its reason, at most once a second per reason (a flood of
 * connections must not flood the log; those left out go to DEBUG), and the reason also reaches the
 * session's close as its cause. One daemon thread checks the deadlines, a few times per timeout (at
 * least once a second).
 */
public final class SessionLimits implements ServerHandler, AutoCloseable {

    /**
     * The largest frame a connection may send before its hello is accepted: a hello is a few hundred
     * bytes (its token at most a few hundred more), so a larger frame is not a client's, and a peer
     * that has not authenticated cannot make the agent hold up to the maximum frame per connection.
     */
    public static final int PRE_HELLO_MAX_FRAME_BYTES = 64 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(SessionLimits.class);
    private static final RateLimitedLog CLOSINGS = new RateLimitedLog(LOG, Level.INFO);
    private static final RateLimitedLog AT_LIMIT = new RateLimitedLog(LOG, Level.WARN);

    private final ServerHandler agent;
    private final LongPredicate busy;
    private final String agentId;
    private final ServerOptions.Limits limits;
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicBoolean atLimit = new AtomicBoolean();
    private final Map<Long, Tracked> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService clock;
    private final long periodNanos;
    private volatile long lastCheckNanos = System.nanoTime();

    private static final class Tracked {
        final Session session;
        final boolean admitted;
        final long openedNanos = System.nanoTime();
        volatile boolean helloReceived;
        volatile long lastActiveNanos = openedNanos;

        Tracked(Session session, boolean admitted) {
            this.session = session;
            this.admitted = admitted;
        }
    }

    /**
     * @param agent the handler the admitted sessions reach
     * @param busy whether a session, by id, has a stream, a subscription or a request in flight
     * @param agentId the name the agent gives in its hello replies
     */
    public SessionLimits(ServerHandler agent, LongPredicate busy, String agentId, ServerOptions.Limits limits) {
        this.agent = agent;
        this.busy = busy;
        this.agentId = agentId;
        this.limits = limits;
        this.clock = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "salgate-session-limits");
            t.setDaemon(true);
            return t;
        });
        long period = checkPeriodMillis(limits);
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(period);
        clock.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    /** A quarter of the shortest timeout, between 20 ms and 1 s. */
    static long checkPeriodMillis(ServerOptions.Limits limits) {
        Duration shortest = limits.helloTimeout();
        if (limits.closesIdleSessions() && limits.idleTimeout().compareTo(shortest) < 0) {
            shortest = limits.idleTimeout();
        }
        return Math.max(20, Math.min(1000, shortest.toMillis() / 4));
    }

    /** The sessions served now (not counting connections refused and not closed yet). */
    public int admittedSessions() {
        return admitted.get();
    }

    @Override
    public boolean admits(String credentials) {
        return agent.admits(credentials);
    }

    @Override
    public void sessionOpened(Session session) {
        session.limitFramesUntilHello(PRE_HELLO_MAX_FRAME_BYTES);
        boolean in = admit();
        sessions.put(session.id(), new Tracked(session, in));
        if (in) {
            agent.sessionOpened(session);
        } else if (atLimit.compareAndSet(false, true)) {
            AT_LIMIT.log("at the limit", "the agent serves its maximum of {} (--max-sessions): new "
                    + "connections are refused until some close", Counts.of(limits.maxSessions(), "session"));
        }
    }

    private boolean admit() {
        int now;
        do {
            now = admitted.get();
            if (now >= limits.maxSessions()) {
                return false;
            }
        } while (!admitted.compareAndSet(now, now + 1));
        return true;
    }

    @Override
    public void messageReceived(Session session, Message message) {
        Tracked tracked = sessions.get(session.id());
        if (tracked == null) {
            agent.messageReceived(session, message);
            return;
        }
        tracked.lastActiveNanos = System.nanoTime();
        if (tracked.admitted) {
            tracked.helloReceived = true;
            agent.messageReceived(session, message);
            return;
        }
        if (tracked.helloReceived) {
            return; // refused already; it is closing
        }
        tracked.helloReceived = true;
        String why = "the agent serves its maximum of " + Counts.of(limits.maxSessions(), "session") + "; retry later";
        closing("refused", "connection from {} (session {}) refused: {}", session.remoteAddress(), session.id(), why);
        if (message instanceof Hello) {
            session.send(HelloReply.refuse(agentId, ErrorCode.OVERLOADED, why));
        }
        session.close();
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        Tracked tracked = sessions.remove(session.id());
        if (tracked == null || tracked.admitted) {
            if (tracked != null && admitted.decrementAndGet() < limits.maxSessions()
                    && atLimit.compareAndSet(true, false)) {
                closing("below the limit", "the agent serves fewer than its maximum of {} again",
                        Counts.of(limits.maxSessions(), "session"));
            }
            agent.sessionClosed(session, cause);
        }
    }

    /**
     * Closes the sessions whose hello or idle deadline has passed. After a stall of the whole
     * process (a long garbage collection, a suspended JVM) nothing is closed this round: the
     * transports first get to read what the peers sent meanwhile.
     */
    private void check() {
        long now = System.nanoTime();
        long sinceLast = now - lastCheckNanos;
        lastCheckNanos = now;
        if (sinceLast > Math.max(3 * periodNanos, TimeUnit.MILLISECONDS.toNanos(500))) {
            LOG.debug("the deadline check ran {} ms late; it closes nothing this round", sinceLast / 1_000_000);
            return;
        }
        long hello = limits.helloTimeout().toNanos();
        long idle = limits.idleTimeout().toNanos();
        try {
            for (Tracked t : sessions.values()) {
                if (!t.helloReceived) {
                    if (now - t.openedNanos >= hello) {
                        close(t, "hello timeout", "it did not complete its hello within "
                                + describe(limits.helloTimeout()) + " (the hello timeout)");
                    }
                } else if (idle > 0 && t.admitted) {
                    if (busy.test(t.session.id())) {
                        t.lastActiveNanos = now;
                    } else if (now - t.lastActiveNanos >= idle) {
                        close(t, "idle timeout", "it was idle for " + describe(limits.idleTimeout())
                                + " (the idle timeout) with no stream, no event subscription and no request");
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("checking the sessions' deadlines failed", e);
        }
    }

    private void close(Tracked t, String kind, String why) {
        Session s = t.session;
        if (!s.isOpen()) {
            return;
        }
        closing(kind, "closing session {} from {}: {}", s.id(), s.remoteAddress(), why);
        s.closeNow("the agent closed the session: " + why);
    }

    /** Logs at INFO at most once a second per {@code kind}, and at DEBUG when left out. */
    private static void closing(String kind, String format, Object... args) {
        if (!CLOSINGS.log(kind, format, args)) {
            LOG.debug(format, args);
        }
    }

    private static String describe(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    /** Stops checking deadlines. */
    @Override
    public void close() {
        clock.shutdownNow();
    }
}
