package org.salgate.transport.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLEngine;
import org.apache.mina.core.filterchain.DefaultIoFilterChainBuilder;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.FilterEvent;
import org.apache.mina.filter.ssl.SslEvent;
import org.apache.mina.filter.ssl.SslFilter;
import org.salgate.transport.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS for MINA: MINA's {@link SslFilter} first in the chain, with {@link TlsConfig}'s engines, and
 * behind it a filter that sees the handshake end. A server closes a connection whose handshake has
 * not finished within {@link TlsConfig#HANDSHAKE_TIMEOUT}; a client waits for its handshake in
 * {@link #awaitHandshake}.
 */
final class TlsFilters {

    private static final Logger LOG = LoggerFactory.getLogger(TlsFilters.class);
    private static final AttributeKey HANDSHAKE = new AttributeKey(TlsFilters.class, "handshake");
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "salgate-mina-tls-timer");
        t.setDaemon(true);
        return t;
    });

    private TlsFilters() {}

    /** Adds the server's TLS filters when {@code tls} is set. */
    static void addServer(DefaultIoFilterChainBuilder chain, TlsConfig tls) {
        if (tls != null) {
            chain.addFirst("tls", new EngineFilter(tls, null, 0));
            chain.addAfter("tls", "tlsHandshake", new HandshakeWatch(true));
        }
    }

    /** Adds a client's TLS filters for {@code host:port} when {@code tls} is set. */
    static void addClient(DefaultIoFilterChainBuilder chain, TlsConfig tls, String host, int port) {
        if (tls != null) {
            chain.addFirst("tls", new EngineFilter(tls, host, port));
            chain.addAfter("tls", "tlsHandshake", new HandshakeWatch(false));
        }
    }

    /**
     * Waits for a client session's handshake, when it has TLS.
     *
     * @throws IOException saying why it failed or that it took too long
     */
    static void awaitHandshake(IoSession session, TlsConfig tls, String target, long timeoutMillis)
            throws IOException {
        if (tls == null) {
            return;
        }
        CompletableFuture<?> handshake = handshake(session);
        try {
            handshake.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("TLS handshake with " + target + " did not finish within " + timeoutMillis
                    + " ms; check that the agent runs with TLS");
        } catch (ExecutionException e) {
            throw new IOException(tls.describeFailure(target, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during the TLS handshake with " + target, e);
        }
    }

    private static CompletableFuture<?> handshake(IoSession session) {
        CompletableFuture<?> created = new CompletableFuture<>();
        Object existing = session.setAttributeIfAbsent(HANDSHAKE, created);
        return existing == null ? created : (CompletableFuture<?>) existing;
    }

    /** MINA's SSL filter with the engines of a {@link TlsConfig}. */
    private static final class EngineFilter extends SslFilter {
        private final TlsConfig tls;
        private final String host;
        private final int port;

        EngineFilter(TlsConfig tls, String host, int port) {
            super(tls.sslContext());
            this.tls = tls;
            this.host = host;
            this.port = port;
        }

        @Override
        protected SSLEngine createEngine(IoSession session, InetSocketAddress addr) {
            return tls.isServer() ? tls.serverEngine() : tls.clientEngine(host, port);
        }
    }

    /** Completes the session's handshake future, and on a server bounds how long the handshake may take. */
    private static final class HandshakeWatch extends IoFilterAdapter {
        private final boolean server;

        HandshakeWatch(boolean server) {
            this.server = server;
        }

        @Override
        public void sessionOpened(NextFilter next, IoSession session) throws Exception {
            CompletableFuture<?> handshake = handshake(session);
            if (server) {
                TIMER.schedule(() -> {
                    if (!handshake.isDone() && session.isConnected()) {
                        LOG.warn("TLS handshake with {} did not finish within {} ms; closed",
                                session.getRemoteAddress(), TlsConfig.HANDSHAKE_TIMEOUT.toMillis());
                        session.closeNow();
                    }
                }, TlsConfig.HANDSHAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            next.sessionOpened(session);
        }

        @Override
        public void event(NextFilter next, IoSession session, FilterEvent event) throws Exception {
            if (event == SslEvent.SECURED) {
                handshake(session).complete(null);
            }
            next.event(session, event);
        }

        @Override
        public void exceptionCaught(NextFilter next, IoSession session, Throwable cause) throws Exception {
            CompletableFuture<?> handshake = handshake(session);
            if (!handshake.isDone()) {
                handshake.completeExceptionally(cause);
                if (server) {
                    LOG.warn("TLS handshake with {} failed: {}; closed (a client without TLS, or one that does"
                            + " not trust this server's certificate)", session.getRemoteAddress(), cause.getMessage());
                }
            }
            next.exceptionCaught(session, cause);
        }

        @Override
        public void sessionClosed(NextFilter next, IoSession session) throws Exception {
            handshake(session).completeExceptionally(new IOException("connection closed"));
            next.sessionClosed(session);
        }
    }
}
