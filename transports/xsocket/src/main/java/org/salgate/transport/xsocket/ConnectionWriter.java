package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.salgate.transport.OutboundQueue;
import org.salgate.wire.Framing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * Drains a connection's {@link OutboundQueue} into xSocket with at most one buffer in xSocket's
 * hands at a time.
 *
 * <p>Why one: when xSocket 2.8.15 takes two or more queued buffers for one socket write, it copies
 * them into a merged buffer of its own, which leaves the queued buffers empty. If the socket then
 * takes only part of the merged buffer, the queue looks empty: xSocket stops waiting for the socket
 * to turn writable, and the rest of the buffer stays unsent until the application writes again. A
 * lone buffer is written as it is and stays counted until its last byte is out, so it cannot be
 * stranded.
 *
 * <p>Over TLS one buffer is not enough: xSocket encrypts what it is given into records of at most
 * 16 KiB and queues each record as its own buffer for the socket, so a larger buffer takes the
 * multi-buffer path above and its last bytes can be stranded (a peer that reads slowly made it
 * happen often). Over TLS each write is therefore at most {@link #TLS_WRITE_BYTES} of a batch, one
 * record; the next part follows when xSocket reports that one written.
 *
 * <p>A frame sent while nothing is on its way goes to xSocket at once; frames sent meanwhile wait
 * in the queue and leave merged when xSocket reports the write before them done.
 *
 * <p>A close takes the same path: the queue refuses new frames, what it holds leaves part by part
 * as above, and the connection is closed once xSocket reports the last part written. (Handing
 * xSocket the rest as one buffer behind the write on its way would be two buffers in its hands,
 * and over TLS many records: the path that strands bytes.)
 */
final class ConnectionWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWriter.class);

    /** The most plaintext one TLS record carries (RFC 5246, 6.2.1): what xSocket encrypts as one buffer. */
    static final int TLS_WRITE_BYTES = 16 * 1024;

    private final INonBlockingConnection connection;
    private final OutboundQueue<byte[]> queue;
    private final Consumer<IOException> onFailure;
    private final IWriteCompletionHandler written = new WriteDone();
    private final int maxWriteBytes;
    /** The batch on its way, from its first byte not yet handed to xSocket; null between batches. */
    private ByteBuffer batch;
    private long batchQueuedBytes;
    /** A part is in xSocket's hands and its completion not yet reported: that completion goes on. */
    private boolean writing;
    /** Closing: the connection is closed once the queue is written out. */
    private boolean closing;

    /**
     * @param tls whether the connection is TLS: writes are then cut to one record each
     * @param onFailure told when a write fails; the connection is closing then
     */
    ConnectionWriter(INonBlockingConnection connection, boolean tls, OutboundQueue<byte[]> queue,
                     Consumer<IOException> onFailure) {
        this.connection = connection;
        this.maxWriteBytes = tls ? TLS_WRITE_BYTES : Integer.MAX_VALUE;
        this.queue = queue;
        this.onFailure = onFailure;
    }

    /**
     * The queue's wake, and what follows each completed write: hands xSocket the next part of the
     * batch on its way or, once that is all written, the next batch, if any; closing, with nothing
     * left, closes the connection. Does nothing while a part is in xSocket's hands.
     */
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

    /**
     * Refuses new frames and closes the connection once what was sent before is written: at once
     * when nothing is queued or on its way, else when xSocket reports the last part written.
     */
    void close() {
        queue.close();
        synchronized (this) {
            closing = true;
        }
        writeNext();
    }

    /** Drops what waits and closes the connection now; xSocket may still write the part in its hands. */
    void closeNow() {
        queue.discard();
        synchronized (this) {
            closing = true;
            closeConnection();
        }
    }

    private void closeConnection() {
        try {
            connection.close();
        } catch (IOException e) {
            LOG.debug("closing {}:{}: {}", connection.getRemoteAddress(), connection.getRemotePort(), e.toString());
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
