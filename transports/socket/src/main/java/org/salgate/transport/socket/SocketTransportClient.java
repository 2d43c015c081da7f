package org.salgate.transport.socket;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A blocking-socket client: {@link #send} writes on the caller's thread under a lock; one reader thread delivers. */
final class SocketTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportClient.class);
    private static final long CLOSE_JOIN_MILLIS = 2_000;

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final Object writeLock = new Object();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Socket socket;
    private DataOutputStream out;
    private Thread reader;
    private ClientHandler handler;
    private volatile Throwable cause;

    SocketTransportClient(ClientOptions options) {
        this.options = options;
        this.codec = new ConnectionCodec(options.codec());
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        if (socket != null || closed.get()) {
            throw new IllegalStateException("the client was connected already");
        }
        Socket s = TlsSockets.connect(options);
        this.handler = handler;
        this.out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), SocketTransportProvider.BUFFER_BYTES));
        this.socket = s;
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), SocketTransportProvider.BUFFER_BYTES));
        reader = new Thread(() -> readLoop(in), "salgate-socket-client-" + s.getLocalPort());
        reader.setDaemon(true);
        reader.start();
    }

    @Override
    public void send(Message message) throws IOException {
        if (closed.get() || socket == null) {
            throw new IOException("the connection is closed");
        }
        byte[] frame = codec.encode(message);
        try {
            synchronized (writeLock) {
                out.writeInt(frame.length);
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            fail(e);
            throw e;
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
                r.join(CLOSE_JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void fail(Throwable why) {
        if (closed.compareAndSet(false, true)) {
            cause = why;
            Socket s = socket;
            if (s != null) {
                try {
                    s.close();
                } catch (IOException e) {
                    LOG.debug("closing the socket failed", e);
                }
            }
        }
    }

    private void readLoop(DataInputStream in) {
        Throwable failure = null;
        try {
            int max = options.maxFrameBytes();
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                Framing.checkLength(length, max);
                byte[] frame = new byte[length];
                in.readFully(frame);
                Message message = codec.decode(frame, 0, length);
                try {
                    handler.messageReceived(message);
                } catch (RuntimeException e) {
                    LOG.warn("the client handler failed on a message", e);
                }
            }
        } catch (CodecException | IOException | RuntimeException e) {
            failure = e;
        }
        boolean byUs = closed.get();
        fail(failure);
        Throwable reported = byUs ? cause : failure;
        try {
            handler.closed(reported);
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on close", e);
        }
    }
}
