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
 * <p>xSocket's client waits for its handshake inside the connection's constructor, and that wait
 * ends only with the handshake or a TLS error the server sent: a server that closes the connection
 * without answering in TLS (one without TLS does) leaves it waiting for good, and interrupting it
 * makes it spin. So the constructor runs on a thread of its own and the caller waits at most the
 * connect timeout; on timeout that thread is left parked (a daemon) and the caller gets a clear error.
 *
 * <p>xSocket 2.8.15's handshake loop stalls on TLS 1.3 (the client never sends its Finished), so
 * this transport enables TLS 1.2 only.
 */
final class TlsConnections {

    /** The protocols xSocket's handshake loop completes. */
    static final List<String> PROTOCOLS = List.of("TLSv1.2");

    private TlsConnections() {}

    /** The SSLContext to give xSocket's server, or null for plain TCP. */
    static SSLContext serverContext(TlsConfig tls) {
        return tls == null ? null : tls.engineContext(null, 0, PROTOCOLS);
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
        CompletableFuture<NonBlockingConnection> connected = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                connected.complete(new NonBlockingConnection(address, options.port(), handler, true, timeoutMillis,
                        tls.engineContext(options.host(), options.port(), PROTOCOLS), true));
            } catch (IOException | RuntimeException e) {
                connected.completeExceptionally(e);
            }
        }, "salgate-xsocket-tls-connect");
        t.setDaemon(true);
        t.start();
        try {
            return connected.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Should the constructor finish after all, close what it made.
            connected.thenAccept(c -> c.closeQuietly());
            throw new IOException("TLS handshake with " + target + " did not finish within " + timeoutMillis
                    + " ms; check that the agent runs with TLS");
        } catch (ExecutionException e) {
            throw new IOException(tls.describeFailure(target, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + target, e);
        }
    }
}
