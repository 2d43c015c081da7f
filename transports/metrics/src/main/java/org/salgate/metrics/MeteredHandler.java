package org.salgate.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.Message;
import org.salgate.wire.Request;

/** Hands everything on to the agent's handler, with each session wrapped so that what it is sent is counted. */
final class MeteredHandler implements ServerHandler {

    private final ServerHandler inner;
    private final String transport;
    private final GatewayMetrics metrics;
    private final AtomicInteger open;
    private final Map<Session, MeteredSession> sessions = new ConcurrentHashMap<>();

    MeteredHandler(ServerHandler inner, String transport, GatewayMetrics metrics, AtomicInteger open) {
        this.inner = inner;
        this.transport = transport;
        this.metrics = metrics;
        this.open = open;
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
        MeteredSession metered = sessions.remove(session);
        if (metered != null) {
            open.decrementAndGet();
            inner.sessionClosed(metered, cause);
        } else {
            inner.sessionClosed(session, cause);
        }
    }

    private MeteredSession wrap(Session session) {
        return sessions.computeIfAbsent(session, s -> {
            open.incrementAndGet();
            metrics.sessionOpened(transport);
            return new MeteredSession(s, transport, metrics);
        });
    }
}
