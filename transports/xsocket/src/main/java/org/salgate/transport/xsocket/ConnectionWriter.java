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
 * Drains a connection's {@link OutboundQueue} into xSocket's asynchronous writes, one buffer in
 * xSocket's hands at a time and the next when it reports that one written; frames sent meanwhile
 * leave merged. A close takes the same path and closes the connection once the queue is written out.
 *
 * <p>Why one: xSocket 2.8.15 merges two or more queued buffers into one of its own for a socket
 * write, and if the socket takes only part of it, stops waiting for the socket and strands the rest.
 * Over TLS it queues each record it encrypts as a buffer, so there a buffer is one record's plaintext.
 *
 * <p>One buffer also lets {@link #closeNow} close for good: xSocket's close first writes what it
 * holds, which keeps a peer that never reads connected. In {@code FlushMode.ASYNC} xSocket writes
 * from the caller's buffer as the socket takes it, so what remains in it is what xSocket has not
 * written: emptied, it leaves the close nothing to wait for. (Over TLS the records are xSocket's.)
 */
@Execution(Execution.NONTHREADED) // the write callbacks run in the connection's serialized callbacks
final class ConnectionWriter implements IWriteCompletionHandler {

    private final INonBlockingConnection connection;
    private final OutboundQueue<byte[]> queue;
    private final Consumer<IOException> onFailure;
    private final int maxWriteBytes;
    /** The batch on its way, from its first byte not yet handed to xSocket. */
    private ByteBuffer batch = ByteBuffer.allocate(0);
    /** What xSocket holds and has not reported written; null when nothing. */
    private ByteBuffer part;
    /** Whether the connection closes once the queue is written out, or was closed at once. */
    private boolean closing;
    private boolean closedNow;

    /** @param onFailure told when a write fails; the queue is discarded then */
    ConnectionWriter(INonBlockingConnection connection, boolean tls, OutboundQueue<byte[]> queue,
                     Consumer<IOException> onFailure) {
        this.connection = connection;
        this.maxWriteBytes = tls ? 16 * 1024 : Integer.MAX_VALUE; // over TLS, one record's plaintext
        this.queue = queue;
        this.onFailure = onFailure;
    }

    /** The queue's wake, and what follows each completed write: hands xSocket the next part, if any. */
    void writeNext() {
        IOException failed = null;
        synchronized (this) {
            if (part != null || closedNow) {
                return;
            }
            if (!connection.isOpen()) { // ended: the disconnect is reported
                queue.discard();
                return;
            }
            if (!batch.hasRemaining()) {
                OutboundQueue.Batch<byte[]> next = queue.next();
                if (next.isEmpty()) {
                    if (closing) {
                        closeConnection();
                    }
                    return;
                }
                batch = Framing.toBuffer(next.items(), next.bytes());
            }
            part = batch.slice(batch.position(), Math.min(batch.remaining(), maxWriteBytes));
            batch.position(batch.position() + part.remaining());
            try {
                connection.write(part, this);
            } catch (IOException e) {
                part = null;
                failed = e;
            }
        }
        if (failed != null) {
            onException(failed);
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

    /**
     * Drops what waits, takes back what xSocket has not written of the part in its hands, and closes
     * the connection. Should xSocket be writing that part this very moment, the peer is reading, and
     * the close waits only for what that write leaves.
     */
    void closeNow() {
        queue.discard();
        synchronized (this) {
            closedNow = true;
            if (part != null) {
                part.position(part.limit());
            }
        }
        closeConnection();
    }

    /** Stops reading (a close that waits reads no more meanwhile) and closes once xSocket wrote what it holds. */
    private void closeConnection() {
        try {
            connection.suspendReceiving();
            connection.close();
        } catch (IOException e) {
            // closing, and xSocket reports the end as a disconnect
        }
    }

    @Override
    public void onWritten(int bytes) {
        synchronized (this) {
            part = null;
        }
        queue.written(bytes);
        writeNext();
    }

    @Override
    public void onException(IOException e) {
        boolean report;
        synchronized (this) {
            part = null;
            report = !closedNow; // a close at once fails the part it took back
        }
        queue.discard();
        if (report) {
            onFailure.accept(e);
        }
    }
}
