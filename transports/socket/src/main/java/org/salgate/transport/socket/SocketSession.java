package org.salgate.transport.socket;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLSocket;
import org.salgate.transport.FrameReader;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session on one socket: a reader thread that decodes frames and hands them to the
 * {@link ServerHandler} (it also reports the session opened and closed, so the handler sees one
 * ordered sequence), and a writer thread that drains the session's outbound queue, one batch per
 * socket write. The writer starts with the first frame queued from another thread (or the close),
 * so a peer that connects and never speaks costs one thread, not two.
 *
 * <p>What the handler sends on the reader's thread (an answer) is written by the reader before it
 * reads again; both drain the queue under one lock, so batches leave whole and in order. A peer
 * that stops reading then blocks its own session's reader, and with it its requests.
 */
final class SocketSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(SocketSession.class);

    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;

    private final Socket socket;
    private final SocketTransportServer server;
    private final ServerHandler handler;
    private final String remoteAddress;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final Thread reader;
    private final Thread writer;
    private final AtomicBoolean writerStarted = new AtomicBoolean();
    /** Taken by whoever takes a batch from the queue and writes it: the writer, or the reader. */
    private final Object writing = new Object();
    /** The reader's thread only: a frame it queued started a drain, which it must finish. */
    private boolean readerDrains;
    /** The first error that closed the session; written before the socket is closed. */
    private volatile Throwable cause;

    SocketSession(long id, Socket socket, SocketTransportServer server, ServerHandler handler) {
        super(id, server.options(), server.budget());
        this.socket = socket;
        this.server = server;
        this.handler = handler;
        this.remoteAddress = String.valueOf(socket.getRemoteSocketAddress());
        this.reader = SocketTransportServer.daemon(this::readLoop, "salgate-socket-read-" + id);
        this.writer = SocketTransportServer.daemon(this::writeLoop, "salgate-socket-write-" + id);
    }

    void start() {
        reader.start();
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public boolean isOpen() {
        return state.get() == OPEN;
    }

    @Override
    protected void startWriting() {
        if (Thread.currentThread() == reader) {
            readerDrains = true; // written before the reader reads again
        } else {
            wakeWriter();
        }
    }

    /** Starts the writer the first time, and wakes it after that. */
    private void wakeWriter() {
        if (writerStarted.compareAndSet(false, true)) {
            try {
                writer.start();
            } catch (Error e) { // no thread to be had: this session ends, the others go on
                abort(e);
            }
        } else {
            LockSupport.unpark(writer);
        }
    }

    /**
     * Writes batches until the queue is empty, which ends the drain.
     *
     * @return false when the queue was empty at once
     */
    private boolean drain(OutputStream out) throws IOException {
        boolean wrote = false;
        synchronized (writing) {
            OutboundQueue.Batch<byte[]> batch;
            while (state.get() != CLOSED && !(batch = queue().next()).isEmpty()) {
                out.write(Framing.toBuffer(batch.items(), batch.bytes()).array());
                queue().written(batch.bytes());
                wrote = true;
            }
        }
        return wrote;
    }

    /** Queued frames are written, then the output is shut down; the socket closes when the client closes its end or a grace period passes. */
    @Override
    public void close() {
        if (state.compareAndSet(OPEN, CLOSING)) {
            queue().close();
            wakeWriter(); // it writes what is queued, then shuts the output down
            try {
                server.timer().schedule(() -> abort(null), SocketTransportServer.CLOSE_GRACE_MILLIS,
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                abort(null); // the server is stopping
            }
        }
    }

    /** Closes now, dropping what is queued; {@code why} is reported to the handler (null: a normal close). */
    @Override
    protected void abort(Throwable why) {
        int previous = state.getAndSet(CLOSED);
        if (previous == CLOSED) {
            return;
        }
        if (previous == OPEN) {
            cause = why;
        }
        queue().discard();
        LockSupport.unpark(writer);
        try {
            if (socket instanceof SSLSocket) {
                // A TLS socket's close sends close_notify under the write lock, which a writer blocked
                // on a client that stopped reading holds for good; with a linger of 0 it resets instead.
                socket.setSoLinger(true, 0);
            }
            socket.close();
        } catch (IOException e) {
            LOG.debug("closing the socket of session {} failed", id(), e);
        }
    }

    private void readLoop() {
        Throwable failure = null;
        FrameReader frames = frameReader();
        try {
            handler.sessionOpened(this);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            do {
                Message message;
                while ((message = frames.next()) != null) {
                    try {
                        if (state.get() == OPEN) { // closing: the agent no longer wants this client's requests
                            handler.messageReceived(this, message);
                        }
                    } catch (RuntimeException e) { // an Error ends the session
                        LOG.warn("the handler failed on a message of session {}", id(), e);
                    }
                }
                if (readerDrains) {
                    readerDrains = false;
                    drain(out);
                }
            } while (frames.readFrom(in) >= 0);
        } catch (CodecException | IOException | RuntimeException | Error e) {
            // an Error too (out of memory, say): this session ends and frees its socket and threads
            failure = e;
            if (e instanceof Framing.HttpRequestException) {
                answerHttpClient();
            }
        } finally {
            frames.release();
        }
        boolean wasOpen = state.get() == OPEN;
        abort(failure);
        Throwable reported = wasOpen ? failure : cause;
        if (reported instanceof Error) {
            LOG.warn("session {} closed after an error: {}", id(), reported.toString());
        } else if (reported != null) {
            LOG.debug("session {} closed: {}", id(), reported.toString());
        }
        try {
            handler.sessionClosed(this, reported);
        } catch (RuntimeException | Error e) {
            LOG.warn("the handler failed when session {} closed", id(), e);
        } finally {
            server.sessionFinished(this);
        }
    }

    /** Writes the answer to an HTTP client, and the end of the stream after it, before the session is aborted. */
    private void answerHttpClient() {
        synchronized (writing) {
            try {
                socket.getOutputStream().write(Framing.httpBadRequest());
                socket.shutdownOutput();
            } catch (IOException e) {
                LOG.debug("answering the HTTP client of session {} failed: {}", id(), e.toString());
            }
        }
    }

    private void writeLoop() {
        try {
            OutputStream out = socket.getOutputStream();
            while (state.get() != CLOSED) {
                if (drain(out)) {
                    continue;
                }
                if (state.get() == CLOSING) {
                    synchronized (writing) { // after a drain the reader may still be writing
                        socket.shutdownOutput();
                    }
                    return;
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        } catch (IOException | RuntimeException | Error e) {
            abort(e);
        }
    }
}
