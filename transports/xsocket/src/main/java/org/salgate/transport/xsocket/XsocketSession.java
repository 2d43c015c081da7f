package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.Session;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * A server session over an xSocket {@link INonBlockingConnection}.
 *
 * <p>Writes are asynchronous ({@code FlushMode.ASYNC}); the session is unwritable once
 * {@code getPendingWriteDataSize()} reaches the high-water mark, and writable again, with the
 * listener run, once it is below the low-water mark. xSocket reports written data only to an
 * {@link IWriteCompletionHandler}, so every write that leaves the pending data at or above the
 * low-water mark carries one, and the drain is checked when it completes; a write that leaves less
 * is followed by a check at once. So the last write before a drain always leads to a check, and
 * since the flag is set before the pending size is read again, a drain racing with the check that
 * set it is seen by one side or the other. Writes on a fast connection, which stays below the
 * low-water mark, carry no completion handler and cost nothing extra.
 */
final class XsocketSession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(XsocketSession.class);
    private static final AtomicLong IDS = new AtomicLong();
    private static final Runnable NO_LISTENER = () -> {};

    private final long id = IDS.incrementAndGet();
    private final INonBlockingConnection connection;
    private final String remoteAddress;
    private final ConnectionCodec codec;
    private final int highWaterBytes;
    private final int lowWaterBytes;
    private final long suspendReadsAboveBytes;
    private final Object writeLock = new Object();
    private final Object readControl = new Object();
    private final AtomicBoolean unwritable = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private final IWriteCompletionHandler drainWatch = new DrainWatch();
    private volatile boolean readsSuspended;
    private volatile boolean open = true;
    private volatile Runnable writabilityListener = NO_LISTENER;
    private volatile Throwable failure;

    /**
     * @param suspendReadsAboveBytes above this many pending bytes the session stops reading until
     *     they drop below the high-water mark; 0 never stops reading
     */
    XsocketSession(INonBlockingConnection connection, ConnectionCodec codec, int highWaterBytes, int lowWaterBytes,
                   long suspendReadsAboveBytes) {
        this.connection = connection;
        this.remoteAddress = connection.getRemoteAddress() + ":" + connection.getRemotePort();
        this.codec = codec;
        this.highWaterBytes = highWaterBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.suspendReadsAboveBytes = suspendReadsAboveBytes;
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
        ByteBuffer frame = Frames.encode(codec, message);
        int size = frame.remaining();
        synchronized (writeLock) {
            if (!connection.isOpen()) {
                return;
            }
            try {
                if (unwritable.get() || readsSuspended || connection.getPendingWriteDataSize() + size >= lowWaterBytes) {
                    connection.write(frame, drainWatch);
                } else {
                    connection.write(frame);
                }
            } catch (IOException e) {
                LOG.debug("send on session {} failed, closing it: {}", id, e.toString());
                closeNow(e);
                return;
            }
        }
        int pending = connection.getPendingWriteDataSize();
        if (pending >= highWaterBytes) {
            markUnwritable();
        } else if (unwritable.get()) {
            checkDrained();
        }
        if (suspendReadsAboveBytes > 0 && (readsSuspended || pending >= suspendReadsAboveBytes)) {
            updateReads();
        }
    }

    @Override
    public boolean isWritable() {
        if (unwritable.get()) {
            return false;
        }
        if (connection.getPendingWriteDataSize() < highWaterBytes) {
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

    @Override
    public void close() {
        open = false;
        synchronized (writeLock) {
            try {
                connection.close();
            } catch (IOException e) {
                LOG.debug("closing session {}: {}", id, e.toString());
            }
        }
    }

    /** Closes at once after a failure, which is reported when the disconnect arrives. */
    void closeNow(Throwable cause) {
        fail(cause);
        close();
    }

    ConnectionCodec codec() {
        return codec;
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

    private void markUnwritable() {
        if (unwritable.compareAndSet(false, true)) {
            checkDrained();
        }
    }

    private void checkDrained() {
        if (connection.getPendingWriteDataSize() < lowWaterBytes && unwritable.compareAndSet(true, false)) {
            try {
                writabilityListener.run();
            } catch (RuntimeException e) {
                LOG.warn("writability listener of session {} failed", id, e);
            }
        }
    }

    /**
     * Stops reading once the pending bytes pass the read limit (a client that sends requests but
     * does not read the answers cannot grow them without bound) and reads again once they are below
     * the high-water mark. Streams stop at the high-water mark and never get here. Every write while
     * stopped is tracked, the count is read again after the flag is set, and xSocket applies
     * suspend and resume in call order, so the last decision holds and a drain is not missed.
     */
    private void updateReads() {
        synchronized (readControl) {
            try {
                if (!readsSuspended && connection.getPendingWriteDataSize() >= suspendReadsAboveBytes) {
                    readsSuspended = true;
                    connection.suspendReceiving();
                }
                if (readsSuspended && connection.getPendingWriteDataSize() < highWaterBytes) {
                    readsSuspended = false;
                    connection.resumeReceiving();
                }
            } catch (IOException e) {
                LOG.debug("changing reads of session {}: {}", id, e.toString());
            }
        }
    }

    @Override
    public String toString() {
        return "XsocketSession[" + id + " " + remoteAddress + "]";
    }

    /** Runs on the dispatcher thread when a tracked write has left. */
    @Execution(Execution.NONTHREADED)
    private final class DrainWatch implements IWriteCompletionHandler {
        @Override
        public void onWritten(int written) {
            if (unwritable.get()) {
                checkDrained();
            }
            if (readsSuspended) {
                updateReads();
            }
        }

        @Override
        public void onException(IOException e) {
            fail(e);
        }
    }
}
