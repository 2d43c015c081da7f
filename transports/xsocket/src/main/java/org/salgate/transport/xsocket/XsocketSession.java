package org.salgate.transport.xsocket;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.connection.INonBlockingConnection;

/**
 * A server session over an xSocket {@link INonBlockingConnection}.
 *
 * <p>Writes are asynchronous ({@code FlushMode.ASYNC}) and go through a {@link SerialWriter}: at
 * most one buffer is in xSocket's hands at a time, and frames sent meanwhile leave merged when it
 * has been written. A burst of small frames so costs xSocket a few buffers and flushes rather than
 * one of each per frame. After every write the session checks its pending bytes again.
 *
 * <p>The pending bytes are xSocket's {@code getPendingWriteDataSize()} plus the writer's outbox.
 * The session is unwritable once they reach the high-water mark and writable again, with the
 * listener run, once they are below the low-water mark; since the flag is set before the pending
 * bytes are read again, a drain racing with the check that set it is seen by one side or the other.
 *
 * <p>Received bytes are cut into frames by a {@link Frames.Cutter}, in xSocket's callbacks, which
 * run one at a time per connection (data callbacks and write completions share one task queue).
 */
final class XsocketSession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketSession.class);
    private static final AtomicLong IDS = new AtomicLong();
    private static final Runnable NO_LISTENER = () -> {};

    private final long id = IDS.incrementAndGet();
    private final INonBlockingConnection connection;
    private final String remoteAddress;
    private final ServerHandler handler;
    private final ConnectionCodec codec;
    private final Frames.Cutter cutter;
    private final int highWaterBytes;
    private final int lowWaterBytes;
    private final long suspendReadsAboveBytes;
    private final Object readControl = new Object();
    private final SerialWriter writer;
    private final AtomicBoolean unwritable = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private volatile boolean readsSuspended;
    private volatile boolean open = true;
    private volatile Runnable writabilityListener = NO_LISTENER;
    private volatile Throwable failure;

    /**
     * @param suspendReadsAboveBytes above this many pending bytes the session stops reading until
     *     they drop below the high-water mark; 0 never stops reading
     */
    XsocketSession(INonBlockingConnection connection, ServerHandler handler, ConnectionCodec codec, int maxFrameBytes,
                   int highWaterBytes, int lowWaterBytes, long suspendReadsAboveBytes) {
        this.connection = connection;
        this.remoteAddress = connection.getRemoteAddress() + ":" + connection.getRemotePort();
        this.handler = handler;
        this.codec = codec;
        this.cutter = new Frames.Cutter(codec, maxFrameBytes);
        this.highWaterBytes = highWaterBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.suspendReadsAboveBytes = suspendReadsAboveBytes;
        this.writer = new SerialWriter(connection, this::afterWrite, this::writeFailed);
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void send(Message message) {
        if (!isOpen()) {
            return;
        }
        try {
            if (!writer.send(Frames.encode(codec, message))) {
                return;
            }
        } catch (IOException e) {
            LOG.debug("send on session {} failed, closing it: {}", id, e.toString());
            closeNow(e);
            return;
        }
        long pending = pendingBytes();
        if (pending >= highWaterBytes) {
            markUnwritable();
        } else if (unwritable.get()) {
            checkDrained();
        }
        if (suspendReadsAboveBytes > 0 && !readsSuspended && pending >= suspendReadsAboveBytes) {
            suspendReads();
        }
    }

    @Override
    public boolean isWritable() {
        if (unwritable.get()) {
            return false;
        }
        if (pendingBytes() < highWaterBytes) {
            return true;
        }
        markUnwritable();
        return !unwritable.get();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        writabilityListener = listener == null ? NO_LISTENER : listener;
    }

    @Override
    public boolean isOpen() {
        return open && connection.isOpen();
    }

    /** Closes once what was sent before has been handed to xSocket, which writes it before closing. */
    @Override
    public void close() {
        open = false;
        try {
            writer.close();
        } catch (IOException e) {
            LOG.debug("closing session {}: {}", id, e.toString());
        }
    }

    /**
     * Takes everything xSocket has read and hands the whole frames to the handler until reads are
     * suspended; frames already cut then wait here until reads resume. Called from xSocket's data
     * callback only. A malformed or oversize frame closes this session with the cause.
     */
    void receive() {
        if (!isOpen()) {
            return;
        }
        try {
            cutter.drain(connection);
            while (isOpen() && !readsSuspended) {
                Message message = cutter.next();
                if (message == null) {
                    break;
                }
                handler.messageReceived(this, message);
            }
        } catch (CodecException e) {
            LOG.debug("closing session {}: {}", id, e.getMessage());
            closeNow(e);
        } catch (IOException e) {
            LOG.debug("reading session {} failed, closing it: {}", id, e.toString());
            closeNow(e);
        } catch (RuntimeException e) {
            LOG.warn("closing session {} after an unexpected error", id, e);
            closeNow(e);
        }
    }

    /** Closes at once after a failure, which is reported when the disconnect arrives. */
    void closeNow(Throwable cause) {
        fail(cause);
        close();
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
        return closeReported.compareAndSet(false, true);
    }

    /** Bytes sent but not yet written to the socket. */
    long pendingBytes() {
        return writer.pendingBytes();
    }

    private void markUnwritable() {
        if (unwritable.compareAndSet(false, true)) {
            checkDrained();
        }
    }

    private void checkDrained() {
        if (pendingBytes() < lowWaterBytes && unwritable.compareAndSet(true, false)) {
            try {
                writabilityListener.run();
            } catch (RuntimeException e) {
                LOG.warn("writability listener of session {} failed", id, e);
            }
        }
    }

    /**
     * Stops reading once the pending bytes pass the read limit: a client that sends requests but
     * does not read the answers cannot grow them without bound. Streams stop at the high-water mark
     * and never get here. Decided under the same lock as {@link #resumeReadsIfDrained}, with the
     * pending bytes read inside it: bytes pending then belong to a write whose completion is still
     * to come and will check again. xSocket applies suspend and resume in call order, so the last
     * decision holds.
     */
    private void suspendReads() {
        synchronized (readControl) {
            if (!readsSuspended && pendingBytes() >= suspendReadsAboveBytes) {
                readsSuspended = true;
                try {
                    connection.suspendReceiving();
                } catch (IOException e) {
                    LOG.debug("suspending reads of session {}: {}", id, e.toString());
                }
            }
        }
    }

    /**
     * Reads again once the pending bytes are below the high-water mark. Only write completions get
     * here, so the frames the cutter already holds are handed on in the same serialized callbacks
     * as received data: xSocket calls the data handler on resuming only if its own buffer holds
     * bytes, and the cutter may have taken them all.
     */
    private void resumeReadsIfDrained() {
        synchronized (readControl) {
            if (!readsSuspended || pendingBytes() >= highWaterBytes) {
                return;
            }
            readsSuspended = false;
            try {
                connection.resumeReceiving();
            } catch (IOException e) {
                LOG.debug("resuming reads of session {}: {}", id, e.toString());
            }
        }
        receive();
    }

    /** Runs in the connection's serialized callbacks each time a write has left. */
    private void afterWrite() {
        if (unwritable.get()) {
            checkDrained();
        }
        if (readsSuspended) {
            resumeReadsIfDrained();
        }
    }

    private void writeFailed(IOException e) {
        LOG.debug("writing to session {} failed, closing it: {}", id, e.toString());
        fail(e);
        if (open) {
            close();
        }
    }

    @Override
    public String toString() {
        return "XsocketSession[" + id + " " + remoteAddress + "]";
    }
}
