package org.salgate.transport.mina;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.MemoryBudget;

/** A server session over a MINA {@link IoSession}, whose outbound queue an {@link IoWriter} drains. */
final class MinaSession extends QueuedSession {

    static final AttributeKey KEY = new AttributeKey(MinaSession.class, "session");

    private final IoSession io;
    private final IoWriter writer;
    private final AtomicBoolean closeReported = new AtomicBoolean();
    private volatile Throwable failure;

    MinaSession(IoSession io, ServerOptions options, MemoryBudget budget) {
        super(io.getId(), options, budget);
        this.io = io;
        this.writer = new IoWriter(io, queue(), QuietLoopProcessor.NEXT_PASS,
                IoWriter.nextPassBatchBytes(options.tls() != null));
    }

    static MinaSession of(IoSession io) {
        return (MinaSession) io.getAttribute(KEY);
    }

    /** The MINA session underneath; tests read its counters. */
    IoSession ioSession() {
        return io;
    }

    @Override
    public String remoteAddress() {
        return String.valueOf(io.getRemoteAddress());
    }

    @Override
    protected void startWriting() {
        writer.writeNext();
    }

    @Override
    protected void abort(Throwable cause) {
        fail(cause);
        queue().discard();
        io.closeNow();
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
    void onMessageSent(Object message) {
        writer.onSent(message);
    }

    /** MINA closed the session: the frames still waiting can no longer leave. */
    void onClosed() {
        queue().discard();
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
}
