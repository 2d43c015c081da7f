package org.salgate.transport.mina;

import java.util.concurrent.Executor;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;

/**
 * Drains a connection's {@link OutboundQueue} into its MINA session with one batch in MINA's write
 * queue at a time: a frame sent while nothing is on its way is written at once, and frames sent
 * meanwhile leave merged into one buffer once MINA reports the batch sent ({@link #onSent}).
 *
 * <p>MINA reports a buffer sent on its I/O thread amid a flush that lasts while any session has more
 * to write: a batch written there keeps a fast reader's stream in the flush for good, and the
 * thread from reading other connections. So when frames wait after a send, the next batch leaves
 * from {@code nextBatches}: another thread on a server, at once on a client (no one to starve).
 */
final class IoWriter {

    private final IoSession io;
    private final OutboundQueue<byte[]> queue;
    private final Executor nextBatches;
    private boolean closeWhenWritten;

    IoWriter(IoSession io, OutboundQueue<byte[]> queue, Executor nextBatches) {
        this.io = io;
        this.queue = queue;
        this.nextBatches = nextBatches;
    }

    /** The queue's wake, and what follows each buffer sent: writes the next batch, if any. */
    synchronized void writeNext() {
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

    /** MINA wrote one of this writer's buffers. */
    void onSent(Object message) {
        if (message instanceof IoBuffer buffer) {
            queue.written(buffer.limit());
        }
        if (queue.hasWaiting()) {
            nextBatches.execute(this::writeNext);
        } else {
            writeNext(); // most often ends the drain; a frame offered meanwhile leaves from here
        }
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
