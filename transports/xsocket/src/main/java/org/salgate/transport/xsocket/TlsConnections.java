package org.salgate.transport.xsocket;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.tls.TlsConfig;
import org.xsocket.connection.IHandler;
import org.xsocket.connection.NonBlockingConnection;

/**
 * xSocket's SSL support, fed with {@link TlsConfig}'s engines.
 *
 * <p>xSocket's client, with TLS turned on in its constructor, waits for the handshake on xSocket's
 * one connector thread until the handshake ends or the server sends a TLS error: a server that
 * closes the connection without answering in TLS (one without TLS does) would stop every later
 * xSocket connection in the JVM. So the connection is made in plain mode and TLS turned on
 * ({@code activateSecuredMode}, which does not wait); the engine reports the end of its handshake,
 * and the caller waits for it, or for the connection to close, at most the connect timeout.
 *
 * <p>xSocket 2.8.15's handshake loop stalls on TLS 1.3 (the client never sends its Finished), so
 * this transport enables TLS 1.2 only.
 */
final class TlsConnections {

    /** How often a client waiting for its handshake checks that the connection is still open. */
    private static final long HANDSHAKE_POLL_MILLIS = 20;

    /** The protocols xSocket's handshake loop completes. */
    static final List<String> PROTOCOLS = List.of("TLSv1.2");

    private TlsConnections() {}

    /** The SSLContext to give xSocket's server, or null for plain TCP. */
    static SSLContext serverContext(TlsConfig tls) {
        if (tls == null) {
            return null;
        }
        return tls.engineContext(null, 0, PROTOCOLS);
    }

    /** Connects, with TLS when the options have it; bounded by the connect timeout either way. */
    static NonBlockingConnection connect(ClientOptions options, IHandler handler) throws IOException {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, options.connectTimeout().toMillis()));
        InetAddress address = InetAddress.getByName(options.host());
        TlsConfig tls = options.tls();
        if (tls == null) {
            return new NonBlockingConnection(address, options.port(), handler, true, timeoutMillis);
        }
        String target = options.host() + ":" + options.port();
        CompletableFuture<Void> handshake = new CompletableFuture<>();
        NonBlockingConnection connection = new NonBlockingConnection(address, options.port(), handler, true,
                timeoutMillis, tls.engineContext(options.host(), options.port(), PROTOCOLS, handshake), false);
        try {
            connection.activateSecuredMode();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (!handshake.isDone()) {
                if (!connection.isOpen()) {
                    throw new IOException(tls.describeFailure(target,
                            new IOException("the connection was closed by the agent")));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("TLS handshake with " + target + " did not finish within " + timeoutMillis
                            + " ms; check that the agent runs with TLS");
                }
                try {
                    handshake.get(HANDSHAKE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // check the connection and the deadline again
                }
            }
            handshake.get();
            return connection;
        } catch (ExecutionException e) {
            connection.closeQuietly();
            throw new IOException(tls.describeFailure(target, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            connection.closeQuietly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + target, e);
        } catch (IOException | RuntimeException e) {
            connection.closeQuietly();
            throw e;
        }
    }
}
