package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import javax.net.ssl.SSLEngine;
import org.salgate.transport.tls.TlsConfig;

/**
 * Netty's TLS handler on the project's TLS engines ({@link TlsConfig}), first in a channel's
 * pipeline, for the transports on Netty.
 *
 * <p>Each handler compacts its buffer after every read. By default it moves the bytes of a record
 * not yet whole to the buffer's start only every 16 reads, so a stream of large messages grew the
 * buffer by reallocation to megabytes, each a fresh chunk of the pooled allocator; compacted, it
 * stays about one record and one read in size ({@code TlsReadBufferTest}), and streaming over TLS
 * at 30 and 100 clients went 1.2-1.6x faster (docs/performance.md, "Netty's TLS handler compacts
 * its buffer after every read").
 */
public final class TlsHandlers {

    private TlsHandlers() {}

    /** Adds a server-side TLS handler when {@code tls} is set; a client that does not finish its handshake in time is closed. */
    public static void addServer(Channel ch, TlsConfig tls) {
        if (tls != null) {
            ch.pipeline().addFirst("tls", handler(tls.serverEngine(), TlsConfig.HANDSHAKE_TIMEOUT.toMillis()));
        }
    }

    /** A TLS handler on {@code engine}, its handshake failed after {@code handshakeTimeoutMillis}. */
    static SslHandler handler(SSLEngine engine, long handshakeTimeoutMillis) {
        SslHandler handler = new SslHandler(engine);
        handler.setDiscardAfterReads(1);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }
}
