package org.salgate.transport.mina;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;

/**
 * Drains a connection's {@link OutboundQueue} into its MINA session with one batch in MINA's write
 * queue at a time.
 *
 * <p>MINA turns every {@code IoSession.write} into a write request, a filter chain pass and a
 * channel write. So a frame sent while nothing is on its way is written at once (a lone answer
 * waits for nothing), and frames sent meanwhile wait in the queue until MINA reports the batch
 * sent ({@link #onSent}), then leave merged into one buffer. MINA reports a buffer sent on its I/O
 * thread in the middle of the flush that wrote it, so the next batch goes out in that same flush.
 */
final class IoWriter {

    private final IoSession io;
    private final OutboundQueue<byte[]> queue;
    private boolean closeWhenWritten;

    IoWriter(IoSession io, OutboundQueue<byte[]> queue) {
        this.io = io;
        this.queue = queue;
    }

    /** The queue's wake, and what follows each buffer sent: writes the next batch, if any. */
    void writeNext() {
        synchronized (this) {
            OutboundQueue.Batch<byte[]> batch = queue.next();
            if (batch.isEmpty()) {
                if (closeWhenWritten) {
                    io.closeOnFlush();
                }
                return;
            }
            IoBuffer buffer = IoBuffer.allocate(Math.toIntExact(batch.bytes()), false);
            Framing.write(batch.items(), buffer.buf());
            io.write(buffer.flip());
        }
    }

    /** MINA wrote one of this writer's buffers. */
    void onSent(Object message) {
        if (message instanceof IoBuffer buffer) {
            queue.written(buffer.limit());
        }
        writeNext();
    }

    /** Closes the session once every frame queued so far is written; frames sent later are dropped. */
    void closeWhenWritten() {
        queue.close();
        synchronized (this) {
            closeWhenWritten = true;
        }
        if (!queue.hasWaiting() && queue.queuedBytes() == 0) {
            io.closeOnFlush();
        }
    }
}
