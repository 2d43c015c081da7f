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
            SslHandler handler = new SslHandler(tls.serverEngine());
            handler.setHandshakeTimeoutMillis(TlsConfig.HANDSHAKE_TIMEOUT.toMillis());
            ch.pipeline().addFirst(NAME, handler);
        }
    }

    /** Adds a client-side TLS handler for {@code host:port} when {@code tls} is set. */
    public static void addClient(Channel ch, TlsConfig tls, String host, int port, long handshakeTimeoutMillis) {
        if (tls != null) {
            SslHandler handler = new SslHandler(tls.clientEngine(host, port));
            handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
            ch.pipeline().addFirst(NAME, handler);
        }
    }

    /**
     * Waits for the client's handshake when the channel has TLS.
     *
     * @throws IOException saying why the handshake failed
     */
    public static void awaitHandshake(Channel ch, TlsConfig tls, String target, long timeoutMillis) throws IOException {
        SslHandler handler = ch.pipeline().get(SslHandler.class);
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
