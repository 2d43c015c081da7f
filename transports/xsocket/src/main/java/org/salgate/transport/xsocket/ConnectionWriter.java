package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.salgate.transport.OutboundQueue;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;
import org.salgate.wire.Framing;

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
 * <p>A frame sent while nothing is on its way goes to xSocket at once; frames sent meanwhile wait
 * in the queue and leave merged when xSocket reports the write before them done.
 */
final class ConnectionWriter {

    private final INonBlockingConnection connection;
    private final OutboundQueue<byte[]> queue;
    private final Consumer<IOException> onFailure;
    private final IWriteCompletionHandler written = new WriteDone();
    private long inFlightBytes;

    /**
     * @param onFailure told when a write fails; the connection is closing then
     */
    ConnectionWriter(INonBlockingConnection connection, OutboundQueue<byte[]> queue, Consumer<IOException> onFailure) {
        this.connection = connection;
        this.queue = queue;
        this.onFailure = onFailure;
    }

    /** The queue's wake, and what follows each completed write: hands xSocket the next batch, if any. */
    void writeNext() {
        IOException failed = null;
        synchronized (this) {
            if (!connection.isOpen()) {
                queue.discard();
                return;
            }
            OutboundQueue.Batch<byte[]> batch = queue.next();
            if (batch.isEmpty()) {
                return;
            }
            inFlightBytes = batch.bytes();
            try {
                connection.write(Framing.toBuffer(batch.items(), batch.bytes()), written);
            } catch (IOException e) {
                failed = e;
            }
        }
        if (failed != null) {
            queue.discard();
            onFailure.accept(failed);
        }
    }

    /**
     * Hands what waits to xSocket as one buffer behind the one on its way, and closes the
     * connection; xSocket closes it once those bytes are written.
     */
    void close() throws IOException {
        queue.close();
        synchronized (this) {
            OutboundQueue.Batch<byte[]> rest = queue.next(Integer.MAX_VALUE, Long.MAX_VALUE);
            if (!rest.isEmpty() && connection.isOpen()) {
                ByteBuffer all = Framing.toBuffer(rest.items(), rest.bytes());
                connection.write(all);
            }
            connection.close();
        }
    }

    /** Runs in the connection's serialized callbacks when a write has left. */
    @Execution(Execution.NONTHREADED)
    private final class WriteDone implements IWriteCompletionHandler {
        @Override
        public void onWritten(int bytes) {
            long done;
            synchronized (ConnectionWriter.this) {
                done = inFlightBytes;
                inFlightBytes = 0;
            }
            queue.written(done);
            writeNext();
        }

        @Override
        public void onException(IOException e) {
            queue.discard();
            onFailure.accept(e);
        }
    }
}
