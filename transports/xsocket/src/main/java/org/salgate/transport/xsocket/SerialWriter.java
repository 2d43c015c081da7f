package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.xsocket.Execution;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * Writes one connection's frames to xSocket with at most one buffer in xSocket's hands at a time.
 *
 * <p>Why one: when xSocket 2.8.15 takes two or more queued buffers for one socket write, it copies
 * them into a merged buffer of its own, which leaves the queued buffers empty. If the socket then
 * takes only part of the merged buffer, the queue looks empty: xSocket stops waiting for the socket
 * to turn writable, its pending write size reads 0, and the rest of the buffer stays unsent until
 * the application writes again. A connection waiting for an answer to that rest would wait forever.
 * A lone buffer is written as it is and stays counted until its last byte is out, so it cannot be
 * stranded.
 *
 * <p>A frame sent while nothing is on its way goes to xSocket at once, so a lone message waits for
 * nothing; frames sent meanwhile wait in an {@link Outbox} and leave, merged, when xSocket reports
 * the write before them done. Every write carries the completion handler that hands on the next.
 */
final class SerialWriter {

    private final INonBlockingConnection connection;
    private final Runnable afterWrite;
    private final Consumer<IOException> onFailure;
    private final Object lock = new Object();
    private final Outbox outbox = new Outbox();
    private final IWriteCompletionHandler written = new WriteDone();
    private boolean writing;

    /**
     * @param afterWrite runs in xSocket's callback each time a write has left and the next is on its way
     * @param onFailure  told when a write fails; what waited is dropped, and the connection is
     *     closing (it is told of a failure in handing the next buffer to xSocket, too)
     */
    SerialWriter(INonBlockingConnection connection, Runnable afterWrite, Consumer<IOException> onFailure) {
        this.connection = connection;
        this.afterWrite = afterWrite;
        this.onFailure = onFailure;
    }

    /**
     * Writes a frame after those sent before it.
     *
     * @return false when the connection is closed and the frame was dropped
     * @throws IOException if xSocket refuses the write
     */
    boolean send(ByteBuffer frame) throws IOException {
        synchronized (lock) {
            if (!connection.isOpen()) {
                return false;
            }
            if (writing) {
                outbox.add(frame);
                return true;
            }
            // Set first: a completion run from inside write() must find the write on its way.
            writing = true;
            try {
                connection.write(frame, written);
            } catch (IOException e) {
                writing = false;
                throw e;
            }
            return true;
        }
    }

    /** Bytes sent but not yet written to the socket: xSocket's and the outbox's. */
    long pendingBytes() {
        return connection.getPendingWriteDataSize() + outbox.bytes();
    }

    /**
     * Hands what waits to xSocket, as one buffer behind the one on its way, and closes the
     * connection; xSocket closes it once those bytes are written.
     *
     * @throws IOException if xSocket refuses the write or the close
     */
    void close() throws IOException {
        synchronized (lock) {
            try {
                ByteBuffer rest = outbox.takeAll();
                if (rest != null && connection.isOpen()) {
                    connection.write(rest);
                }
                connection.close();
            } finally {
                outbox.clear();
            }
        }
    }

    /** Hands the outbox to xSocket as the next write, or notes that nothing is on its way. */
    private void writeNext() {
        IOException failed = null;
        synchronized (lock) {
            ByteBuffer next = connection.isOpen() ? outbox.next() : null;
            if (next == null) {
                writing = false;
                outbox.clear();
            } else {
                int bytes = next.remaining();
                try {
                    connection.write(next, written);
                    outbox.handedOver(bytes);
                } catch (IOException e) {
                    writing = false;
                    outbox.clear();
                    failed = e;
                }
            }
        }
        if (failed != null) {
            onFailure.accept(failed);
        }
    }

    /** Runs in the connection's serialized callbacks when a write has left. */
    @Execution(Execution.NONTHREADED)
    private final class WriteDone implements IWriteCompletionHandler {
        @Override
        public void onWritten(int bytes) {
            writeNext();
            afterWrite.run();
        }

        @Override
        public void onException(IOException e) {
            synchronized (lock) {
                writing = false;
                outbox.clear();
            }
            onFailure.accept(e);
        }
    }
}
