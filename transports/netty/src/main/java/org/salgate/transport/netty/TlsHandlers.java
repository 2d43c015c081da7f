package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.tls.TlsConfig;

/**
 * Puts TLS first in a channel's pipeline, and waits for a client's handshake: for the Netty
 * transport and the transports built on Netty (HTTP).
 */
public final class TlsHandlers {

    private static final String NAME = "tls";

    private TlsHandlers() {}

    /** Adds a server-side TLS handler when {@code tls} is set; a client that does not finish its handshake in time is closed. */
    public static void addServer(Channel ch, TlsConfig tls) {
        if (tls != null) {
            SslHandler handler = compactingAfterEveryRead(new SslHandler(tls.serverEngine()));
            handler.setHandshakeTimeoutMillis(TlsConfig.HANDSHAKE_TIMEOUT.toMillis());
            ch.pipeline().addFirst(NAME, handler);
        }
    }

    /**
     * Adds a client-side TLS handler for {@code host:port} when {@code tls} is set.
     *
     * @return the handler, or null without TLS; kept for {@link #awaitHandshake}, since a channel
     *     that fails its handshake may close, and lose its handlers, before anyone waits
     */
    public static SslHandler addClient(Channel ch, TlsConfig tls, String host, int port, long handshakeTimeoutMillis) {
        if (tls == null) {
            return null;
        }
        SslHandler handler = compactingAfterEveryRead(new SslHandler(tls.clientEngine(host, port)));
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        ch.pipeline().addFirst(NAME, handler);
        return handler;
    }

    /**
     * Netty's TLS handler (on the JDK's engine) appends each read to one buffer and decrypts the
     * whole records in it. By default it moves the bytes of a record not yet whole to the buffer's
     * start only after 16 reads or at the end of a run of reads, and frees the buffer only when no
     * such bytes are left, which a stream of large messages seldom leaves. So the buffer grew by
     * reallocation: to 4 MB in runs of 16 reads of 64 KB ({@code TlsReadBufferTest}), and on the
     * pooled allocator 30 clients streaming over TLS took hundreds of fresh 4 MB chunks where they
     * now take a few (docs/performance.md). Compacted after every read, it stays about one record
     * and one read in size; the HTTP client's WebSocket frame decoder does the same.
     */
    private static SslHandler compactingAfterEveryRead(SslHandler handler) {
        handler.setDiscardAfterReads(1);
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
