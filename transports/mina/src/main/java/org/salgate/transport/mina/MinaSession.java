package org.salgate.transport.mina;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.salgate.transport.Session;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session over a MINA {@link IoSession}.
 *
 * <p>Messages go out through a {@link FrameWriter}, which merges the frames sent while a write is
 * under way. MINA queues writes without limit and has no writability event, so this class makes
 * one from the queued bytes (MINA's scheduled write bytes plus the frames waiting in the writer):
 * the session turns unwritable once they reach the high-water mark, and {@link #onMessageSent()}
 * (MINA's {@code messageSent}, after a buffer left) turns it writable again and runs the listener
 * once they are below the low-water mark. The flag is set before the byte count is checked again,
 * so a drain that completes between a check and the flag is not missed: whichever side sees both
 * the flag and a low count clears the flag and runs the listener.
 */
final class MinaSession implements Session {

    static final AttributeKey KEY = new AttributeKey(MinaSession.class, "session");

    private static final Logger LOG = LoggerFactory.getLogger(MinaSession.class);
    private static final Runnable NO_LISTENER = () -> {};

    private final IoSession io;
    private final FrameWriter writer;
    private final long highWaterBytes;
    private final long lowWaterBytes;
    private final long suspendReadsAboveBytes;
    private final AtomicBoolean unwritable = new AtomicBoolean();
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private final Object readControl = new Object();
    private volatile boolean readsSuspended;
    private volatile Runnable writabilityListener = NO_LISTENER;
    private volatile Throwable failure;

    /**
     * @param suspendReadsAboveBytes above this many queued bytes the session stops reading until
     *     they drop below the high-water mark; 0 never stops reading
     */
    MinaSession(IoSession io, FrameWriter writer, long highWaterBytes, long lowWaterBytes,
            long suspendReadsAboveBytes) {
        this.io = io;
        this.writer = writer;
        this.highWaterBytes = highWaterBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.suspendReadsAboveBytes = suspendReadsAboveBytes;
    }

    static MinaSession of(IoSession io) {
        return (MinaSession) io.getAttribute(KEY);
    }

    /** The MINA session underneath; tests read its counters. */
    IoSession ioSession() {
        return io;
    }

    @Override
    public long id() {
        return io.getId();
    }

    @Override
    public String remoteAddress() {
        return String.valueOf(io.getRemoteAddress());
    }

    @Override
    public void send(Message message) {
        if (!isOpen()) {
            return;
        }
        writer.write(message);
        long queued = queuedBytes();
        if (queued >= highWaterBytes) {
            markUnwritable();
        }
        if (suspendReadsAboveBytes > 0 && (readsSuspended || queued >= suspendReadsAboveBytes)) {
            updateReads();
        }
    }

    @Override
    public boolean isWritable() {
        if (unwritable.get()) {
            return false;
        }
        if (queuedBytes() < highWaterBytes) {
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
        return io.isConnected() && !io.isClosing();
    }

    @Override
    public void close() {
        writer.closeWhenWritten();
    }

    /** MINA finished writing a buffer of this session. */
    void onMessageSent() {
        writer.onSent();
        if (unwritable.get()) {
            checkDrained();
        }
        if (readsSuspended) {
            updateReads();
        }
    }

    /** MINA closed the session: the frames still waiting in the writer can no longer leave. */
    void onClosed() {
        writer.discard();
    }

    /** Records the first failure of this session, reported when it closes. */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    Throwable failure() {
        return failure;
    }

    /** True the first time only: the handler hears of each session's end exactly once. */
    boolean markCloseReported() {
        return closeReported.compareAndSet(false, true);
    }

    /** Outbound bytes not yet handed to the socket: in MINA's write queue or waiting in the writer. */
    private long queuedBytes() {
        return io.getScheduledWriteBytes() + writer.waitingBytes();
    }

    private void markUnwritable() {
        if (unwritable.compareAndSet(false, true)) {
            checkDrained();
        }
    }

    private void checkDrained() {
        if (queuedBytes() < lowWaterBytes && unwritable.compareAndSet(true, false)) {
            try {
                writabilityListener.run();
            } catch (RuntimeException e) {
                LOG.warn("writability listener of session {} failed", id(), e);
            }
        }
    }

    /**
     * Stops reading once the queued bytes pass the read limit (a client that sends requests but
     * does not read the answers cannot grow them without bound) and reads again once they are below
     * the high-water mark. A well-behaved producer stops at the high-water mark and never gets here.
     * The count is read again after the flag is set, and each {@code messageSent} checks while the
     * flag is set, so the drain that should resume reading is never missed.
     */
    private void updateReads() {
        synchronized (readControl) {
            if (!readsSuspended && queuedBytes() >= suspendReadsAboveBytes) {
                readsSuspended = true;
                io.suspendRead();
            }
            if (readsSuspended && queuedBytes() < highWaterBytes) {
                readsSuspended = false;
                io.resumeRead();
            }
        }
    }

    @Override
    public String toString() {
        return "MinaSession[" + id() + " " + remoteAddress() + "]";
    }
}
