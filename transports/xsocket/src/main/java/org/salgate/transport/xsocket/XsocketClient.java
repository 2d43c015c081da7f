package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.FrameReader;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.Execution;
import org.xsocket.connection.IConnection;
import org.xsocket.connection.IDataHandler;
import org.xsocket.connection.IDisconnectHandler;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.NonBlockingConnection;

/**
 * The xSocket client: one {@link NonBlockingConnection}. xSocket's client dispatcher is shared by
 * every client in the JVM, so its data handler only cuts frames and queues the messages; this
 * client's own delivery thread hands them to the {@link ClientHandler} in order, then reports the
 * close. When the queue holds its limit of unread bytes the connection stops receiving, and it
 * resumes once the handler has taken half of them: a handler that blocks makes this one client stop
 * reading, as a slow client should look to the agent. Each data callback takes everything xSocket
 * has read (see {@link ConnectionReader}): resuming from the delivery thread can move the callbacks
 * onto xSocket's worker pool, where the dispatcher no longer waits for them and keeps reading.
 *
 * <p>Sends go through the connection's {@link OutboundQueue}, drained by a {@link ConnectionWriter}
 * as the server's sessions are.
 *
 * <p>Receiving is suspended and resumed under one lock, with a flag, because xSocket applies both
 * as queued key updates in call order: the last decision taken is the one that holds. (xSocket's
 * own read-buffer threshold checks the key state, which lags those updates, and can stay
 * suspended for good.)
 */
final class XsocketClient implements TransportClient {

    static final String READ_BUFFER_PROPERTY = "xsocket.clientReadBufferBytes";
    static final int DEFAULT_READ_BUFFER_BYTES = 256 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(XsocketClient.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final int readBufferBytes;
    private final FrameReader cutter;
    private final OutboundQueue<byte[]> queue;
    private final Object flowLock = new Object();
    private final BlockingQueue<Object> inbound = new LinkedBlockingQueue<>();
    private final AtomicBoolean connecting = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean endQueued = new AtomicBoolean();
    private final CountDownLatch closeReported = new CountDownLatch(1);
    private long queuedBytes;
    private boolean receivingSuspended;
    private volatile ClientHandler handler;
    private volatile Throwable failure;
    private volatile INonBlockingConnection connection;
    private volatile ConnectionWriter writer;
    private volatile Thread delivery;

    XsocketClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new ConnectionCodec(options.codec());
        this.readBufferBytes = readBufferBytes(options);
        this.cutter = new FrameReader(codec, options.maxFrameBytes());
        this.queue = OutboundQueue.forClient(options, () -> writer.writeNext());
    }

    @Override
    public void connect(ClientHandler clientHandler) throws IOException {
        this.handler = Objects.requireNonNull(clientHandler, "handler");
        if (!connecting.compareAndSet(false, true)) {
            throw new IllegalStateException("this xSocket client was already connected; create a new one");
        }
        Thread t = new Thread(this::deliver, "salgate-xsocket-client-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        delivery = t;
        try {
            NonBlockingConnection c = TlsConnections.connect(options, new Callbacks());
            c.setFlushmode(IConnection.FlushMode.ASYNC);
            c.setAutoflush(true);
            c.setOption(IConnection.TCP_NODELAY, Boolean.TRUE);
            writer = new ConnectionWriter(c, options.tls() != null, queue, this::writeFailed);
            connection = c;
        } catch (IOException | RuntimeException e) {
            String why = String.valueOf(e.getMessage());
            throw new IOException(why.startsWith("TLS handshake") ? why
                    : "cannot connect to " + options.host() + ":" + options.port() + ": " + why, e);
        }
        t.start();
        if (closed.get()) {
            closeConnection();
        }
    }

    @Override
    public void send(Message message) throws IOException {
        if (writer == null || closed.get()) {
            throw closedException();
        }
        queue.offerRequest(codec.encode(message), options.host() + ":" + options.port());
    }

    @Override
    public boolean isOpen() {
        INonBlockingConnection c = connection;
        return c != null && !closed.get() && c.isOpen();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || connection == null) {
            return;
        }
        closeConnection();
        // xSocket holds a close until unsent data is written; the caller is done with the connection anyway.
        queueEnd();
        if (Thread.currentThread() == delivery) {
            return;
        }
        try {
            closeReported.await(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes once what was sent before has been handed to xSocket, which writes it before closing. */
    private void closeConnection() {
        try {
            writer.close();
        } catch (IOException e) {
            LOG.debug("closing the connection to {}:{}: {}", options.host(), options.port(), e.toString());
        }
    }

    private void writeFailed(IOException e) {
        LOG.debug("writing to {}:{} failed, closing the connection: {}", options.host(), options.port(), e.toString());
        if (failure == null) {
            failure = e;
        }
        closeConnection();
    }

    /** Called by xSocket's dispatcher for each whole frame. */
    private void enqueue(Message message, int frameBytes, INonBlockingConnection c) throws IOException {
        synchronized (flowLock) {
            inbound.add(new Inbound(message, frameBytes));
            queuedBytes += frameBytes;
            if (queuedBytes >= readBufferBytes) {
                // Repeated while over the limit: harmless, and it restores a suspension lost to a race.
                receivingSuspended = true;
                c.suspendReceiving();
            }
        }
    }

    private void taken(int frameBytes) {
        synchronized (flowLock) {
            queuedBytes -= frameBytes;
            if (receivingSuspended && queuedBytes <= readBufferBytes / 2) {
                receivingSuspended = false;
                try {
                    connection.resumeReceiving();
                } catch (IOException e) {
                    LOG.debug("resuming reads from {}:{}: {}", options.host(), options.port(), e.toString());
                }
            }
        }
    }

    private void queueEnd() {
        if (endQueued.compareAndSet(false, true)) {
            inbound.add(End.INSTANCE);
        }
    }

    /** The delivery thread: messages in arrival order, then the close, once. */
    private void deliver() {
        try {
            while (true) {
                Object next = inbound.take();
                if (next instanceof Inbound in) {
                    taken(in.frameBytes());
                    if (!closed.get()) {
                        handler.messageReceived(in.message());
                    }
                } else {
                    closed.set(true);
                    handler.closed(failure);
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed; closing the connection to {}:{}", options.host(), options.port(), e);
            failure = e;
            closed.set(true);
            closeConnection();
            handler.closed(e);
        } finally {
            closeReported.countDown();
        }
    }

    private IOException closedException() {
        return new IOException("the connection to " + options.host() + ":" + options.port() + " is closed");
    }

    private static int readBufferBytes(ClientOptions options) {
        String value = options.properties().get(READ_BUFFER_PROPERTY);
        if (value == null) {
            return DEFAULT_READ_BUFFER_BYTES;
        }
        try {
            int bytes = Integer.parseInt(value.trim());
            if (bytes > 0) {
                return bytes;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("transport property " + READ_BUFFER_PROPERTY
                + " must be a positive number of bytes, got '" + value + "'");
    }

    private record Inbound(Message message, int frameBytes) {}

    private enum End { INSTANCE }

    /** NONTHREADED: cut frames on the dispatcher thread, without blocking it. */
    @Execution(Execution.NONTHREADED)
    private final class Callbacks implements IDataHandler, IDisconnectHandler {

        @Override
        public boolean onData(INonBlockingConnection c) throws IOException {
            try {
                ConnectionReader.drain(c, cutter);
                while (!endQueued.get()) {
                    int before = cutter.buffered();
                    Message message = cutter.next();
                    if (message == null) {
                        break;
                    }
                    enqueue(message, before - cutter.buffered(), c);
                }
            } catch (CodecException e) {
                if (failure == null) {
                    failure = e;
                }
                LOG.debug("closing the connection to {}:{}: {}", options.host(), options.port(), e.getMessage());
                c.close();
            }
            return true;
        }

        @Override
        public boolean onDisconnect(INonBlockingConnection c) {
            queueEnd();
            return true;
        }
    }
}
