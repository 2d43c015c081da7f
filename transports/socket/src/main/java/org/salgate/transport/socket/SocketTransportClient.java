package org.salgate.transport.socket;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A blocking-socket client. Its reader thread reads the socket and hands each message to the
 * {@link ClientHandler}, in arrival order, then reports the close; a handler that blocks stops the
 * reading. Requests go through the connection's {@link OutboundQueue}: the sender that finds no
 * write under way writes what waits on its own thread, others' requests included.
 */
final class SocketTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportClient.class);

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Socket socket;
    private volatile OutputStream out;
    private volatile Thread reader;
    private volatile Throwable cause;

    SocketTransportClient(ClientOptions options) {
        this.options = options;
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, this::writeWaiting);
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        if (socket != null || closed.get()) {
            throw new IllegalStateException("the client was connected already");
        }
        Socket s = TlsSockets.connect(options);
        InputStream in = s.getInputStream();
        out = s.getOutputStream();
        socket = s;
        reader = SocketTransportServer.daemon(() -> readLoop(in, handler),
                "salgate-socket-client-" + s.getLocalPort());
        reader.start();
    }

    @Override
    public void send(Message message) throws IOException {
        if (closed.get() || socket == null) {
            throw new IOException("the connection is closed");
        }
        queue.offerRequest(codec.encode(message), options.host() + ":" + options.port());
        Throwable why = cause;
        if (closed.get() && why instanceof IOException e) {
            throw new IOException("writing to the agent failed: " + e.getMessage(), e);
        }
    }

    /** The queue's wake: writes what waits on this thread until the queue is empty. */
    private void writeWaiting() {
        try {
            OutboundQueue.Batch<byte[]> batch;
            while (!(batch = queue.next()).isEmpty()) {
                out.write(Framing.toBuffer(batch.items(), batch.bytes()).array());
                queue.written(batch.bytes());
            }
        } catch (IOException e) {
            queue.discard();
            fail(e);
        }
    }

    private void readLoop(InputStream in, ClientHandler handler) {
        FrameReader frames = new FrameReader(codec, options.maxFrameBytes());
        Throwable failure = null;
        try {
            while (!closed.get() && frames.readFrom(in) >= 0) {
                Message message;
                while ((message = frames.next()) != null) {
                    try {
                        handler.messageReceived(message);
                    } catch (RuntimeException e) {
                        LOG.warn("the client handler failed on a message", e);
                    }
                }
            }
        } catch (CodecException | IOException | RuntimeException e) {
            failure = e;
        }
        boolean byUs = closed.get();
        fail(failure);
        try {
            handler.closed(byUs ? cause : failure);
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on close", e);
        }
    }

    @Override
    public boolean isOpen() {
        return socket != null && !closed.get();
    }

    @Override
    public void close() {
        fail(null);
        Thread r = reader;
        if (r != null && r != Thread.currentThread()) {
            try {
                r.join(SocketTransportServer.CLOSE_GRACE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void fail(Throwable why) {
        if (closed.compareAndSet(false, true)) {
            cause = why;
            queue.discard();
            Socket s = socket;
            if (s != null) {
                TlsSockets.closeQuietly(s);
            }
        }
    }
}
