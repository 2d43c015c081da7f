package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.wire.CodecException;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.FrameReader;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * A server session over an xSocket {@link INonBlockingConnection}: writes are asynchronous
 * ({@code FlushMode.ASYNC}) and leave the session's outbound queue through a
 * {@link ConnectionWriter}; received bytes are cut into frames by the shared {@link FrameReader},
 * in xSocket's callbacks, which run one at a time per connection.
 */
final class XsocketSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketSession.class);
    private static final AtomicLong IDS = new AtomicLong();

    private final INonBlockingConnection connection;
    private final String remoteAddress;
    private final ServerHandler handler;
    private final FrameReader reader;
    private final ConnectionWriter writer;
    private final Consumer<XsocketSession> reportClosed;
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private final AtomicBoolean closingNow = new AtomicBoolean();
    private volatile boolean open = true;
    private volatile Throwable failure;

    /**
     * @param reportClosed tells the handler that the session closed (once), without waiting for
     *     xSocket's disconnect: an aborted session is over for the agent at once
     */
    XsocketSession(INonBlockingConnection connection, ServerHandler handler, ServerOptions options,
                   MemoryBudget budget, Consumer<XsocketSession> reportClosed) {
        super(IDS.incrementAndGet(), options, budget);
        this.connection = connection;
        this.remoteAddress = connection.getRemoteAddress() + ":" + connection.getRemotePort();
        this.handler = handler;
        this.reader = frameReader();
        this.writer = new ConnectionWriter(connection, options.tls() != null, queue(), this::writeFailed);
        this.reportClosed = reportClosed;
    }

    /** The xSocket connection, for tests in this package that set its socket options. */
    INonBlockingConnection connection() {
        return connection;
    }

    /** Gives back what the frame reader held: the session is over. */
    void releaseReader() {
        reader.release();
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    protected void startWriting() {
        writer.writeNext();
    }

    /**
     * Closes at once for the agent. xSocket itself closes the connection only once its pending bytes
     * (at most the one buffer on its way) are written, or the connection breaks.
     */
    @Override
    protected void abort(Throwable cause) {
        fail(cause);
        closeConnectionNow();
        reportClosed.accept(this);
    }

    @Override
    public boolean isOpen() {
        return open && connection.isOpen();
    }

    /** Closes once what was sent before is written. */
    @Override
    public void close() {
        open = false;
        writer.close();
    }

    /**
     * Closes the connection now, dropping what it has not written. xSocket's close waits for the
     * buffer in its hands to be written, which a peer that stopped reading never lets happen, and
     * meanwhile goes on reading whatever the peer sends into buffers of its own, without bound: so
     * reading stops first, and a connection with bytes still to write is closed at once (see
     * {@link HardClose}).
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
        boolean holdsUnwritten = connection.getPendingWriteDataSize() > 0;
        writer.closeNow();
        if (holdsUnwritten) { // else xSocket's own close is done at once
            HardClose.now(connection);
        }
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
            ConnectionReader.drain(connection, reader);
            Message message;
            while (isOpen() && (message = reader.next()) != null) {
                handler.messageReceived(this, message);
            }
        } catch (CodecException e) {
            LOG.debug("closing session {}: {}", id(), e.getMessage());
            if (e instanceof Framing.HttpRequestException) {
                answerHttpClientThenAbort(e);
            } else {
                abort(e);
            }
        } catch (IOException e) {
            LOG.debug("reading session {} failed, closing it: {}", id(), e.toString());
            abort(e);
        } catch (RuntimeException e) {
            LOG.warn("closing session {} after an unexpected error", id(), e);
            abort(e);
        }
    }

    /**
     * Writes the answer to an HTTP client, and aborts the session once it has left (an abort drops
     * what is still pending). Nothing more is read meanwhile.
     */
    private void answerHttpClientThenAbort(CodecException cause) {
        open = false;
        try {
            connection.suspendReceiving();
            connection.write(ByteBuffer.wrap(Framing.httpBadRequest()), new AbortWhenWritten(cause));
        } catch (IOException e) {
            LOG.debug("answering the HTTP client of session {} failed: {}", id(), e.toString());
            abort(cause);
        }
    }

    @Execution(Execution.NONTHREADED)
    private final class AbortWhenWritten implements IWriteCompletionHandler {
        private final CodecException cause;

        AbortWhenWritten(CodecException cause) {
            this.cause = cause;
        }

        @Override
        public void onWritten(int bytes) {
            abort(cause);
        }

        @Override
        public void onException(IOException e) {
            abort(cause);
        }
    }

    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    Throwable failure() {
        return failure;
    }

    /** True the first time only: each session's end is reported exactly once. */
    boolean markCloseReported() {
        open = false;
        queue().discard();
        return closeReported.compareAndSet(false, true);
    }

    /** Bytes sent but not yet written to the socket. */
    long pendingBytes() {
        return queue().queuedBytes();
    }

    private void writeFailed(IOException e) {
        LOG.debug("writing to session {} failed, closing it: {}", id(), e.toString());
        fail(e);
        closeConnectionNow();
    }
}
