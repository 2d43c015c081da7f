package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * Drains a connection's {@link OutboundQueue} into xSocket with one buffer in xSocket's hands at a
 * time, the next when xSocket reports the last written; frames sent meanwhile leave merged. A close
 * takes the same path and closes the connection once the queue is written out.
 *
 * <p>Why one: when xSocket 2.8.15 takes two or more queued buffers for one socket write, it merges
 * them into a buffer of its own and empties the queued ones; if the socket takes only part of it,
 * xSocket stops waiting for the socket to turn writable and the rest stays unsent. Over TLS it
 * encrypts a buffer into records of at most 16 KiB, each queued as a buffer of its own, so there
 * each write is at most {@link #TLS_WRITE_BYTES} (one record).
 */
final class ConnectionWriter {

    /** The most plaintext one TLS record carries: what xSocket encrypts as one buffer. */
    static final int TLS_WRITE_BYTES = 16 * 1024;

    private final INonBlockingConnection connection;
    private final OutboundQueue<byte[]> queue;
    private final Consumer<IOException> onFailure;
    private final IWriteCompletionHandler written = new WriteDone();
    private final int maxWriteBytes;
    /** The batch on its way, from its first byte not yet handed to xSocket; null between batches. */
    private ByteBuffer batch;
    private long batchQueuedBytes;
    /** A part is in xSocket's hands and its completion not yet reported. */
    private boolean writing;
    /** The connection is closed once the queue is written out. */
    private boolean closing;

    /** @param onFailure told when a write fails; the queue is discarded then */
    ConnectionWriter(INonBlockingConnection connection, boolean tls, OutboundQueue<byte[]> queue,
                     Consumer<IOException> onFailure) {
        this.connection = connection;
        this.maxWriteBytes = tls ? TLS_WRITE_BYTES : Integer.MAX_VALUE;
        this.queue = queue;
        this.onFailure = onFailure;
    }

    /** The queue's wake, and what follows each completed write: hands xSocket the next part, if any. */
    void writeNext() {
        IOException failed = null;
        synchronized (this) {
            if (writing) {
                return;
            }
            if (!connection.isOpen()) {
                queue.discard();
                return;
            }
            if (batch == null) {
                OutboundQueue.Batch<byte[]> next = queue.next();
                if (next.isEmpty()) {
                    if (closing) {
                        closeConnection();
                    }
                    return;
                }
                batchQueuedBytes = next.bytes();
                batch = Framing.toBuffer(next.items(), next.bytes());
            }
            int length = Math.min(batch.remaining(), maxWriteBytes);
            ByteBuffer part = batch.slice(batch.position(), length);
            batch.position(batch.position() + length);
            writing = true;
            try {
                connection.write(part, written);
            } catch (IOException e) {
                writing = false;
                failed = e;
            }
        }
        if (failed != null) {
            queue.discard();
            onFailure.accept(failed);
        }
    }

    /** Refuses new frames and closes the connection once what was sent before is written. */
    void close() {
        queue.close();
        synchronized (this) {
            closing = true;
        }
        writeNext();
    }

    /** Drops what waits and closes the connection now; xSocket still writes the part in its hands. */
    synchronized void closeNow() {
        queue.discard();
        closing = true;
        closeConnection();
    }

    private void closeConnection() {
        try {
            connection.close();
        } catch (IOException e) {
            // closing, and xSocket reports the end as a disconnect
        }
    }

    /** Runs in the connection's serialized callbacks when a write has left. */
    @Execution(Execution.NONTHREADED)
    private final class WriteDone implements IWriteCompletionHandler {
        @Override
        public void onWritten(int bytes) {
            long done = -1;
            synchronized (ConnectionWriter.this) {
                writing = false;
                if (batch != null && !batch.hasRemaining()) {
                    done = batchQueuedBytes;
                    batch = null;
                }
            }
            if (done >= 0) {
                queue.written(done);
            }
            writeNext();
        }

        @Override
        public void onException(IOException e) {
            synchronized (ConnectionWriter.this) {
                writing = false;
            }
            queue.discard();
            onFailure.accept(e);
        }
    }
}
