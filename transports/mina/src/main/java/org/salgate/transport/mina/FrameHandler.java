package org.salgate.transport.mina;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLException;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.DefaultIoFilterChainBuilder;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.ssl.SslFilter;
import org.salgate.transport.FrameReader;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the server's and the client's MINA handlers share, on the session's processor thread: the
 * messages its {@link FrameReader} cuts from what MINA reads; TLS, MINA's {@link SslFilter} on
 * {@link TlsConfig}'s engines (on a server the agent's hello timeout bounds the handshake); and a
 * failure, logged (at DEBUG when it is the peer's doing), which closes the session.
 */
abstract class FrameHandler extends IoHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(FrameHandler.class);
    private static final AttributeKey READER = new AttributeKey(FrameHandler.class, "frameReader");

    /** Each side's own: a whole message arrived; the session failed, and closes next; it closed. */
    abstract void deliver(IoSession io, Message message);
    abstract void failed(IoSession io, Throwable failure);
    abstract void closed(IoSession io);

    /** Gives the session the reader of what its peer sends; call it as the session is created. */
    static void attach(IoSession io, FrameReader reader) {
        io.setAttribute(READER, reader);
    }

    /**
     * Adds TLS when {@code tls} is set; on a client, {@code host:port} is the server dialled, and
     * {@code handshake} completes when its handshake does, or fails with what ends it.
     */
    static void addTls(DefaultIoFilterChainBuilder chain, TlsConfig tls, String host, int port,
                       CompletableFuture<Void> handshake) {
        if (tls != null) {
            chain.addFirst("tls", new SslFilter(tls.engineContext(host, port, TlsConfig.PROTOCOLS, handshake)));
        }
    }

    @Override
    public final void messageReceived(IoSession io, Object bytes) throws CodecException {
        FrameReader reader = (FrameReader) io.getAttribute(READER);
        reader.append(((IoBuffer) bytes).buf());
        Message message;
        while (!io.isClosing() && (message = reader.next()) != null) {
            deliver(io, message);
        }
    }

    @Override
    public final void exceptionCaught(IoSession io, Throwable failure) {
        failed(io, failure);
        if (failure instanceof SSLException && io.isServer() && !io.isSecured()) {
            LOG.warn("TLS handshake with {} failed: {}; closed (a client without TLS, or one that does not trust"
                    + " this server's certificate)", io.getRemoteAddress(), failure.getMessage());
        } else if (failure instanceof CodecException || failure instanceof IOException) {
            LOG.debug("closing the connection with {}: {}", io.getRemoteAddress(), failure.toString());
        } else {
            LOG.warn("closing the connection with {} after an unexpected error", io.getRemoteAddress(), failure);
        }
        if (failure instanceof Framing.HttpRequestException) {
            io.write(IoBuffer.wrap(Framing.httpBadRequest()));
            io.closeOnFlush();
        } else {
            io.closeNow();
        }
    }

    @Override
    public final void sessionClosed(IoSession io) {
        FrameReader reader = (FrameReader) io.getAttribute(READER);
        if (reader != null) {
            reader.release();
        }
        closed(io);
    }
}
