package org.salgate.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/**
 * Hands everything on to the agent's handler, with each session wrapped so that what it is sent is
 * counted. The bytes a door's sessions carried are summed at scrape time from the sessions
 * themselves ({@link Session#bytesReceived()}, {@link Session#bytesSent()}), those of closed
 * sessions kept in a running total.
 */
final class MeteredHandler implements ServerHandler {

    private final ServerHandler inner;
    private final String transport;
    private final GatewayMetrics metrics;
    private final AtomicInteger open;
    private final Map<Session, MeteredSession> sessions = new ConcurrentHashMap<>();
    /** Guards the move of a closing session's bytes into the totals, so that no scrape sees them twice or not at all. */
    private final Object totalsLock = new Object();
    private long closedReceived;
    private long closedSent;

    MeteredHandler(ServerHandler inner, String transport, GatewayMetrics metrics, AtomicInteger open) {
        this.inner = inner;
        this.transport = transport;
        this.metrics = metrics;
        this.open = open;
    }

    @Override
    public boolean admits(String credentials) {
        return inner.admits(credentials);
    }

    @Override
    public void sessionOpened(Session session) {
        MeteredSession metered = wrap(session);
        inner.sessionOpened(metered);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        MeteredSession metered = wrap(session);
        if (message instanceof Request request) {
            metered.requested(request);
        }
        inner.messageReceived(metered, message);
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        MeteredSession metered;
        synchronized (totalsLock) {
            metered = sessions.remove(session);
            if (metered != null) {
                closedReceived += metered.bytesReceived();
                closedSent += metered.bytesSent();
            }
        }
        if (metered != null) {
            open.decrementAndGet();
            inner.sessionClosed(metered, cause);
        } else {
            inner.sessionClosed(session, cause);
        }
    }

    /** Bytes of encoded messages received on this door's sessions, closed ones included. */
    long bytesReceived() {
        synchronized (totalsLock) {
            long n = closedReceived;
            for (Session s : sessions.keySet()) {
                n += s.bytesReceived();
            }
            return n;
        }
    }

    /** Bytes of encoded messages sent on this door's sessions, closed ones included. */
    long bytesSent() {
        synchronized (totalsLock) {
            long n = closedSent;
            for (Session s : sessions.keySet()) {
                n += s.bytesSent();
            }
            return n;
        }
    }

    /** Bytes queued now for this door's open sessions. */
    long queuedBytes() {
        long n = 0;
        for (Session s : sessions.keySet()) {
            n += s.queuedBytes();
        }
        return n;
    }

    private MeteredSession wrap(Session session) {
        return sessions.computeIfAbsent(session, s -> {
            open.incrementAndGet();
            metrics.sessionOpened(transport);
            return new MeteredSession(s, transport, metrics);
        });
    }
}
