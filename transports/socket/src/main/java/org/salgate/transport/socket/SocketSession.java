package org.salgate.transport.socket;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server session on one socket: a reader thread that decodes frames and hands them to the
 * {@link ServerHandler} (it also reports the session opened and closed, so the handler sees one
 * ordered sequence), and a writer thread that drains the session's {@link OutboundQueue}.
 */
final class SocketSession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(SocketSession.class);

    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;

    private final long id;
    private final Socket socket;
    private final SocketTransportServer server;
    private final ServerHandler handler;
    private final ConnectionCodec codec;
    private final int maxFrameBytes;
    private final OutboundQueue queue;
    private final String remoteAddress;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final Thread reader;
    private final Thread writer;
    private volatile Runnable writabilityListener;
    /** The first error that closed the session; written before the socket is closed. */
    private volatile Throwable cause;

    SocketSession(long id, Socket socket, SocketTransportServer server, ServerHandler handler) {
        this.id = id;
        this.socket = socket;
        this.server = server;
        this.handler = handler;
        var options = server.options();
        this.codec = new ConnectionCodec(options.codec());
        this.maxFrameBytes = options.maxFrameBytes();
        this.queue = new OutboundQueue(options.writeHighWaterBytes(), options.writeLowWaterBytes(),
                server.maxQueuedBytes());
        this.remoteAddress = String.valueOf(socket.getRemoteSocketAddress());
        this.reader = new Thread(this::readLoop, "salgate-socket-read-" + id);
        this.reader.setDaemon(true);
        this.writer = new Thread(this::writeLoop, "salgate-socket-write-" + id);
        this.writer.setDaemon(true);
    }

    void start() {
        writer.start();
        reader.start();
    }

    Thread readerThread() {
        return reader;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void send(Message message) {
        if (state.get() != OPEN) {
            return;
        }
        byte[] frame = codec.encode(message);
        if (queue.offer(frame) == OutboundQueue.Offer.OVER_LIMIT) {
            abort(new IOException("the client stopped reading: more than " + server.maxQueuedBytes()
                    + " bytes are queued for it, so its session is closed"));
        }
    }

    @Override
    public boolean isWritable() {
        return queue.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    @Override
    public boolean isOpen() {
        return state.get() == OPEN;
    }

    /** Queued frames are written, then the output is shut down; the socket closes when the client closes its end or a grace period passes. */
    @Override
    public void close() {
        if (state.compareAndSet(OPEN, CLOSING)) {
            queue.close();
            try {
                server.timer().schedule(() -> abort(null), server.closeGraceMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                abort(null); // the server is stopping
            }
        }
    }

    /** Closes now, dropping what is queued; {@code why} is reported to the handler (null: a normal close). */
    void abort(Throwable why) {
        int previous = state.getAndSet(CLOSED);
        if (previous == CLOSED) {
            return;
        }
        if (previous == OPEN) {
            cause = why;
        }
        queue.abort();
        closeSocket();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("closing the socket of session {} failed", id, e);
        }
    }

    private void readLoop() {
        Throwable failure = null;
        try {
            handler.sessionOpened(this);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(),
                    SocketTransportProvider.BUFFER_BYTES));
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                Framing.checkLength(length, maxFrameBytes);
                byte[] frame = new byte[length];
                in.readFully(frame);
                Message message = codec.decode(frame, 0, length);
                if (state.get() != OPEN) {
                    continue; // closing: the agent no longer wants this client's requests
                }
                try {
                    handler.messageReceived(this, message);
                } catch (RuntimeException e) {
                    LOG.warn("the handler failed on a message of session {}", id, e);
                }
            }
        } catch (CodecException | IOException | RuntimeException e) {
            failure = e;
        }
        boolean wasOpen = state.get() == OPEN;
        abort(failure);
        Throwable reported = wasOpen ? failure : cause;
        if (reported != null) {
            LOG.debug("session {} closed: {}", id, reported.toString());
        }
        try {
            handler.sessionClosed(this, reported);
        } catch (RuntimeException e) {
            LOG.warn("the handler failed when session {} closed", id, e);
        } finally {
            server.sessionFinished(this);
        }
    }

    private void writeLoop() {
        List<byte[]> batch = new ArrayList<>();
        try {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(),
                    SocketTransportProvider.BUFFER_BYTES));
            while (queue.take(batch)) {
                long bytes = 0;
                for (byte[] frame : batch) {
                    out.writeInt(frame.length);
                    out.write(frame);
                    bytes += frame.length;
                }
                batch.clear();
                out.flush();
                if (queue.release(bytes)) {
                    fireWritable();
                }
            }
            if (state.get() == CLOSING) {
                socket.shutdownOutput();
            }
        } catch (IOException e) {
            abort(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort(null);
        }
    }

    private void fireWritable() {
        Runnable listener = writabilityListener;
        if (listener == null) {
            return;
        }
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("the writability listener of session {} failed", id, e);
        }
    }

    @Override
    public String toString() {
        return "session " + id + " (" + remoteAddress + ")";
    }
}
