package org.salgate.transport.mina;

import java.util.concurrent.Executor;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerOptions;

/** A server session over a MINA {@link IoSession}, whose outbound queue an {@link IoWriter} drains. */
final class MinaSession extends QueuedSession {

    static final AttributeKey KEY = new AttributeKey(MinaSession.class, "session");

    private final IoSession io;
    private final IoWriter writer;
    /** The first failure, reported as the session closes. */
    private volatile Throwable failure;

    /** A session whose batches after a send leave from {@code nextBatches} (see {@link IoWriter}). */
    MinaSession(IoSession io, ServerOptions options, MemoryBudget budget, Executor nextBatches) {
        super(io.getId(), options, budget);
        this.io = io;
        this.writer = new IoWriter(io, queue(), nextBatches);
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

    void onMessageSent(Object message) {
        writer.onSent(message);
    }

    /** MINA closed the session: the frames still waiting can no longer leave. */
    void onClosed() {
        queue().discard();
    }

    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    Throwable failure() {
        return failure;
    }
}
