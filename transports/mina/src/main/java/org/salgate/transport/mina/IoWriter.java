package org.salgate.transport.mina;

import java.util.concurrent.Executor;
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
 * sent ({@link #onSent}), then leave merged into one buffer.
 *
 * <p>MINA reports a buffer sent on its I/O thread in the middle of a flush, and that flush goes on
 * for as long as any session has more to write. Writing the next batch from there keeps a stream
 * whose client reads as fast as it is written in the flush for good: the I/O thread reads nothing
 * meanwhile, and its other connections' requests wait (over TLS, where each batch is encrypted in
 * that write, the bench's 100 streaming clients had their stream starts unanswered for 30 s). So
 * on a server, when frames wait after a send, the next batch is written as the I/O thread's next
 * pass starts ({@link QuietLoopProcessor#atNextPass}): after this flush, and before the reads and
 * the flush of that pass, so that each pass of a streaming session's thread writes one batch and
 * reads every ready session. With nothing waiting the drain ends where it is. A batch written at
 * the next pass may take up to {@link #PLAIN_NEXT_PASS_BATCH_BYTES} on a plain connection, four
 * times a batch written at once, so that a stream needs a quarter of the passes; over TLS, where
 * the batch is encrypted in that write, {@link OutboundQueue#BATCH_BYTES}, as when these batches
 * were written from a pool of threads: the larger ones cost 100 streaming TLS clients a quarter to
 * a half of their rate there (measured, not explained; docs/performance.md).
 */
final class IoWriter {

    /** The most a batch written at the I/O thread's next pass carries on a plain connection. */
    static final long PLAIN_NEXT_PASS_BATCH_BYTES = 4L * OutboundQueue.BATCH_BYTES;

    private final IoSession io;
    private final OutboundQueue<byte[]> queue;
    private final Executor nextBatches;
    private final long nextBatchBytes;
    private boolean closeWhenWritten;

    /**
     * A writer whose batches after the first leave from {@code nextBatches} ({@code Runnable::run}:
     * at once, inside MINA's flush; {@link QuietLoopProcessor#NEXT_PASS}: at the I/O thread's next
     * pass), each of up to {@code nextBatchBytes}.
     */
    IoWriter(IoSession io, OutboundQueue<byte[]> queue, Executor nextBatches, long nextBatchBytes) {
        this.io = io;
        this.queue = queue;
        this.nextBatches = nextBatches;
        this.nextBatchBytes = nextBatchBytes;
    }

    /** The most a batch written at a server's next pass carries: see the class comment. */
    static long nextPassBatchBytes(boolean tls) {
        return tls ? OutboundQueue.BATCH_BYTES : PLAIN_NEXT_PASS_BATCH_BYTES;
    }

    /** The queue's wake, and what follows each buffer sent: writes the next batch, if any. */
    void writeNext() {
        writeNext(OutboundQueue.BATCH_BYTES);
    }

    private void writeNext(long maxBytes) {
        synchronized (this) {
            OutboundQueue.Batch<byte[]> batch = queue.next(Integer.MAX_VALUE, maxBytes);
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

    /** Whether the calling thread is writing a batch of this writer's (inside {@link #writeNext}). */
    boolean writesOnThisThread() {
        return Thread.holdsLock(this);
    }

    /** MINA wrote one of this writer's buffers. */
    void onSent(Object message) {
        if (message instanceof IoBuffer buffer) {
            queue.written(buffer.limit());
        }
        if (!queue.hasWaiting()) {
            writeNext(); // most often ends the drain; a frame offered meanwhile leaves from here
            return;
        }
        nextBatches.execute(() -> writeNext(nextBatchBytes));
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
