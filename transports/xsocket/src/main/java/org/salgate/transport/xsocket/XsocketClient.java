package org.salgate.transport.xsocket;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import org.salgate.transport.CallerTurns;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.transport.FrameReader;
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
 * close. Delivering takes turns, as reading does on the socket and Netty clients: a caller waiting
 * for an answer ({@link #readWhileWaiting}) that finds the turn free takes the queued messages and
 * delivers them itself until its answer is in, so that the answer needs no hand-off from the
 * delivery thread; while callers have the turn and for a while after, the delivery thread stays
 * away (see {@link CallerTurns}) unless messages are left or a caller waits without the turn. When the queue holds its limit of unread bytes the connection stops receiving, and it
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
    /**
     * A caller waits for the next message in slices of at most this long at first, doubling up to
     * {@link #LONGEST_WAIT_SLICE_NANOS} while nothing comes, and looks at its answer between them:
     * an answer another thread completes cannot end the wait.
     */
    private static final long FIRST_WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONGEST_WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

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
    /** Held by whoever delivers: the delivery thread, or a caller waiting for its answer. */
    private final ReentrantLock turn = new ReentrantLock();
    /** Who waits without the turn, and how long the delivery thread stays away after a caller's. */
    private final CallerTurns turns = new CallerTurns();
    /** Set as a caller leaves the turn with messages still queued: the delivery thread delivers them at once. */
    private volatile boolean leftUndelivered;
    /**
     * Set while the delivery thread waits for a message to arrive (not while it stays away from
     * callers); the first message queued meanwhile clears it and wakes the thread, the rest do not.
     */
    private final AtomicBoolean waitsForMessages = new AtomicBoolean();
    /** Set once the close is reported (or being reported): nothing is delivered after it. */
    private volatile boolean ended;
    /** Ends the wait of the caller holding the turn, unless it is the completing thread. */
    private final BiConsumer<Object, Throwable> wakeCaller = (result, failure) -> {
        if (turn.isLocked() && !turn.isHeldByCurrentThread()) {
            inbound.add(Nudge.INSTANCE);
        }
    };

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
        // The connection closes once what was sent is written; the caller is done with it anyway.
        queueEnd();
        if (Thread.currentThread() == delivery || turn.isHeldByCurrentThread()) {
            return; // closing from inside the handler: the close is reported after this delivery
        }
        try {
            closeReported.await(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes once what was sent before is written. */
    private void closeConnection() {
        writer.close();
    }

    private void writeFailed(IOException e) {
        LOG.debug("writing to {}:{} failed, closing the connection: {}", options.host(), options.port(), e.toString());
        if (failure == null) {
            failure = e;
        }
        writer.closeNow();
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
        // While a caller holds the turn, it delivers this, and wakes the thread as it leaves if needed.
        if (!turn.isLocked() && waitsForMessages.compareAndSet(true, false)) {
            LockSupport.unpark(delivery);
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
            LockSupport.unpark(delivery);
        }
    }

    /**
     * On a caller that waits for an answer: if the turn to deliver is free (or soon is), takes the
     * messages xSocket has cut and delivers them on this thread, in order, until the answer is in or
     * the deadline passes; the messages after the answer are left to the delivery thread. Otherwise
     * notes that a caller waits, and the delivery thread delivers its answer.
     */
    @Override
    public void readWhileWaiting(Future<?> answer, long deadlineNanos) {
        if (answer.isDone() || Thread.currentThread() == delivery || turn.isHeldByCurrentThread() || ended) {
            return;
        }
        turns.callerReads();
        if (!CallerTurns.takeSoon(turn)) {
            turns.waitsWithoutTurn(answer, deadlineNanos);
            LockSupport.unpark(delivery); // the holder may have left before the note
            return;
        }
        try {
            long firstSliceNanos = CallerTurns.wakeWhenDone(answer, wakeCaller)
                    ? LONGEST_WAIT_SLICE_NANOS : FIRST_WAIT_SLICE_NANOS;
            long sliceNanos = firstSliceNanos;
            while (!answer.isDone() && !ended) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                Object next = inbound.poll(Math.min(sliceNanos, left), TimeUnit.NANOSECONDS);
                if (next == null) {
                    sliceNanos = Math.min(2 * sliceNanos, LONGEST_WAIT_SLICE_NANOS);
                } else if (next != Nudge.INSTANCE) {
                    sliceNanos = firstSliceNanos;
                    deliverOne(next);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's own wait then ends as interrupted
        } catch (RuntimeException e) {
            handlerFailed(e);
        } finally {
            turns.callerReads();
            turn.unlock();
            // After the unlock: a message queued while the turn was held, which its queueing left to
            // this caller, is seen here.
            leftUndelivered = hasMessages();
            if (leftUndelivered || ended || turns.someoneWaitsWithoutTurn()) {
                LockSupport.unpark(delivery);
            }
        }
    }

    /**
     * The delivery thread: delivers messages in arrival order, then the close, once, whenever no
     * caller does. While callers have the turn, and for {@link CallerTurns#CALLER_TURN_NANOS} after
     * a caller's turn, it stays away (looking in at times that lengthen while callers keep
     * delivering, up to {@link CallerTurns#LONGEST_STAY_AWAY_NANOS}), unless a caller left messages
     * or another waits without the turn.
     */
    private void deliver() {
        try {
            while (!ended) {
                if (!leftUndelivered && !turns.someoneWaitsWithoutTurn()) {
                    long stay = turns.ownThreadStaysAwayNanos(turn.isLocked());
                    if (stay > 0) {
                        LockSupport.parkNanos(this, stay);
                        continue;
                    }
                }
                if (!hasMessages() || turn.isLocked()) {
                    // Nothing to deliver, or a caller delivers: a message queued while the turn is
                    // free wakes this thread, and so does a caller that leaves messages behind.
                    waitsForMessages.set(true);
                    if ((!hasMessages() || turn.isLocked()) && !ended) {
                        LockSupport.park(this);
                    }
                    waitsForMessages.set(false);
                    continue;
                }
                if (!turn.tryLock()) {
                    continue;
                }
                try {
                    leftUndelivered = false;
                    Object next;
                    while (!ended && (next = inbound.poll()) != null) {
                        if (next != Nudge.INSTANCE) {
                            deliverOne(next);
                        }
                    }
                } finally {
                    turn.unlock();
                }
            }
        } catch (RuntimeException e) {
            handlerFailed(e);
        } finally {
            closeReported.countDown();
        }
    }

    /** Whether a message or the close waits to be delivered. */
    private boolean hasMessages() {
        Object head = inbound.peek();
        while (head == Nudge.INSTANCE) {
            inbound.remove(head);
            head = inbound.peek();
        }
        return head != null;
    }

    /** Delivers one message, or the close; with the turn held. */
    private void deliverOne(Object next) {
        if (next instanceof Inbound in) {
            taken(in.frameBytes());
            if (!closed.get()) {
                handler.messageReceived(in.message());
            }
        } else {
            ended = true;
            closed.set(true);
            try {
                handler.closed(failure);
            } finally {
                closeReported.countDown();
            }
        }
    }

    private void handlerFailed(RuntimeException e) {
        LOG.warn("the client handler failed; closing the connection to {}:{}", options.host(), options.port(), e);
        failure = e;
        closed.set(true);
        closeConnection();
        if (!ended) {
            ended = true;
            handler.closed(e);
        }
        closeReported.countDown();
        LockSupport.unpark(delivery);
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

    /**
     * Queued when a waiting caller's answer is completed by another thread, to end its wait for the
     * next message; whoever takes it skips it.
     */
    private enum Nudge { INSTANCE }

    /** NONTHREADED: cut frames on the dispatcher thread, without blocking it. */
    @Execution(Execution.NONTHREADED)
    private final class Callbacks implements IDataHandler, IDisconnectHandler {

        @Override
        public boolean onData(INonBlockingConnection c) throws IOException {
            cutWhatArrived(c);
            return true;
        }

        /**
         * The frames sent before the agent closed come first: what xSocket read before the end may
         * still wait in its read buffer, not handed to a data callback while receiving was suspended.
         */
        @Override
        public boolean onDisconnect(INonBlockingConnection c) {
            try {
                cutWhatArrived(c);
            } catch (IOException e) {
                LOG.debug("reading what {}:{} sent before closing: {}", options.host(), options.port(), e.toString());
            }
            queueEnd();
            return true;
        }

        private void cutWhatArrived(INonBlockingConnection c) throws IOException {
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
        }
    }
}
