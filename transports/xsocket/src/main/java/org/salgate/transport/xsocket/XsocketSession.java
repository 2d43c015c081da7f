package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.FrameReader;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.connection.INonBlockingConnection;

/**
 * A server session over an xSocket {@link INonBlockingConnection}: what it sends leaves its
 * outbound queue through a {@link ConnectionWriter}; what it receives is cut into frames by the
 * shared {@link FrameReader} in xSocket's callbacks, which run one at a time per connection.
 */
final class XsocketSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketSession.class);
    private static final AtomicLong IDS = new AtomicLong();

    private final INonBlockingConnection connection;
    private final XsocketServer server;
    private final String remoteAddress;
    private final ServerHandler handler;
    private final FrameReader reader;
    private final ConnectionWriter writer;
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private final AtomicBoolean closingNow = new AtomicBoolean();
    private volatile boolean open = true;
    private volatile Throwable failure;

    XsocketSession(INonBlockingConnection connection, XsocketServer server, ServerHandler handler) {
        super(IDS.incrementAndGet(), server.options(), server.budget());
        this.connection = connection;
        this.server = server;
        this.remoteAddress = connection.getRemoteAddress() + ":" + connection.getRemotePort();
        this.handler = handler;
        this.reader = frameReader();
        this.writer = new ConnectionWriter(connection, server.options().tls() != null, queue(), this::abort);
    }

    /** The xSocket connection, for tests in this package that set its socket options. */
    INonBlockingConnection connection() {
        return connection;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public boolean isOpen() {
        return open && connection.isOpen();
    }

    @Override
    protected void startWriting() {
        writer.writeNext();
    }

    /** Closes once what was sent before is written. */
    @Override
    public void close() {
        open = false;
        writer.close();
    }

    /** Over for the agent at once; the connection closes as {@link #closeConnectionNow} says. */
    @Override
    protected void abort(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        closeConnectionNow();
        ended();
    }

    /**
     * Stops reading and closes the connection, dropping what the queue holds. xSocket's close still
     * writes the one buffer in its hands first: a peer that never reads keeps the connection (and
     * that buffer) until it reads or leaves, or the server stops, but is read no further.
     */
    void closeConnectionNow() {
        open = false;
        if (!closingNow.compareAndSet(false, true)) {
            return; // xSocket's close reports the failed write, which comes back here
        }
        try {
            connection.suspendReceiving();
        } catch (IOException e) {
            LOG.debug("stopping reading session {} failed: {}", id(), e.toString());
        }
        writer.closeNow();
    }

    /**
     * Takes everything xSocket has read and hands the whole frames to the handler. Called from
     * xSocket's data callback, and once from its connect callback, which over TLS may run on
     * another thread at the same time: hence the lock, which keeps the frame reader to one thread.
     * A malformed or oversize frame closes this session with the cause.
     */
    synchronized void receive() {
        if (!isOpen()) {
            return;
        }
        try {
            readInto(connection, reader);
            Message message;
            while (isOpen() && (message = reader.next()) != null) {
                handler.messageReceived(this, message);
            }
        } catch (Framing.HttpRequestException e) {
            answerHttpClientThenAbort(e);
        } catch (CodecException | IOException | RuntimeException e) {
            LOG.debug("closing session {}: {}", id(), e.toString());
            abort(e);
        }
    }

    /**
     * Moves everything xSocket has read for {@code connection} into {@code reader} in one call, so
     * xSocket's read buffer holds only what arrived since: cutting frames one by one out of it would
     * cost time in proportion to the chunks it holds, for every frame.
     */
    static void readInto(INonBlockingConnection connection, FrameReader reader) throws IOException {
        int available = connection.available();
        if (available > 0) {
            for (ByteBuffer chunk : connection.readByteBufferByLength(available)) {
                reader.append(chunk);
            }
        }
    }

    /** Answers an HTTP client and aborts: xSocket's close writes what it holds first. */
    private void answerHttpClientThenAbort(CodecException cause) {
        try {
            connection.write(ByteBuffer.wrap(Framing.httpBadRequest()));
        } catch (IOException e) {
            LOG.debug("answering the HTTP client of session {} failed: {}", id(), e.toString());
        }
        abort(cause);
    }

    /**
     * Tells the handler, once, that the session ended, and gives back what it held: at xSocket's
     * disconnect, or at once when it is aborted.
     */
    void ended() {
        open = false;
        queue().discard();
        server.forget(this);
        if (closeReported.compareAndSet(false, true)) {
            reader.release();
            handler.sessionClosed(this, failure);
        }
    }
}
