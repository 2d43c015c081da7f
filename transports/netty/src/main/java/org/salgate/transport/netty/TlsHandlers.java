package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.tls.TlsConfig;

/**
 * Puts Netty's TLS handler, on the project's TLS engines ({@link TlsConfig}), first in a channel's
 * pipeline, and waits for a client's handshake: for the transports on Netty.
 *
 * <p>Each handler compacts its buffer after every read. By default it moves the bytes of a record
 * not yet whole to the buffer's start only every 16 reads, so a stream of large messages grew the
 * buffer by reallocation to megabytes, each a fresh chunk of the pooled allocator; compacted, it
 * stays about one record and one read in size ({@code TlsReadBufferTest}), and streaming over TLS
 * at 30 and 100 clients went 1.2-1.6x faster (docs/performance.md, "Netty's TLS handler compacts
 * its buffer after every read").
 */
public final class TlsHandlers {

    private static final String NAME = "tls";

    private TlsHandlers() {}

    /** Adds a server-side TLS handler when {@code tls} is set; a client that does not finish its handshake in time is closed. */
    public static void addServer(Channel ch, TlsConfig tls) {
        if (tls != null) {
            add(ch, new SslHandler(tls.serverEngine()), TlsConfig.HANDSHAKE_TIMEOUT.toMillis());
        }
    }

    /**
     * Adds a client-side TLS handler for {@code host:port} when {@code tls} is set.
     *
     * @return the handler, or null without TLS; kept for {@link #awaitHandshake}, since a channel
     *     that fails its handshake may close, and lose its handlers, before anyone waits
     */
    public static SslHandler addClient(Channel ch, TlsConfig tls, String host, int port, long handshakeTimeoutMillis) {
        return tls == null ? null : add(ch, new SslHandler(tls.clientEngine(host, port)), handshakeTimeoutMillis);
    }

    private static SslHandler add(Channel ch, SslHandler handler, long handshakeTimeoutMillis) {
        handler.setDiscardAfterReads(1);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        ch.pipeline().addFirst(NAME, handler);
        return handler;
    }

    /**
     * Waits for the client's handshake when the channel has TLS.
     *
     * @throws IOException saying why the handshake failed
     */
    public static void awaitHandshake(SslHandler handler, TlsConfig tls, String target, long timeoutMillis)
            throws IOException {
        if (handler == null) {
            return;
        }
        var handshake = handler.handshakeFuture();
        if (!handshake.awaitUninterruptibly(timeoutMillis + 1_000, TimeUnit.MILLISECONDS)) {
            throw new IOException("TLS handshake with " + target + " did not finish within " + timeoutMillis
                    + " ms; check that the agent runs with TLS");
        }
        if (!handshake.isSuccess()) {
            throw new IOException(tls.describeFailure(target, handshake.cause()), handshake.cause());
        }
    }
}
