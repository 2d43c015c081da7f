package org.salgate.transport.socket;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLSocket;
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
import org.salgate.wire.Framing;

/**
 * A blocking-socket client: requests go through the connection's {@link OutboundQueue}, and the
 * sender that finds no write under way writes what waits on its own thread (others' requests
 * included).
 *
 * <p>Reading takes turns. A caller that waits for an answer ({@link #readWhileWaiting}) and finds
 * the socket free reads it on its own thread, delivering whatever arrives, until its answer is in:
 * the answer then needs no hand-off from another thread, as a blocking-socket peer such as RMI's
 * pays none. The connection's reader thread reads the rest of the time: while nobody waits, and
 * for any caller that found the socket taken. While callers read, and for
 * {@link CallerTurns#CALLER_TURN_NANOS} after a caller has read, the reader thread stays away,
 * looking in at times that lengthen while callers keep reading, up to
 * {@link CallerTurns#LONGEST_STAY_AWAY_NANOS}, so that back-to-back calls each find the socket
 * free; a caller that waits meanwhile without the socket gets the reader thread back at once. So
 * a frame the agent pushes (a stream's reading, an event) while nobody waits is read at most that
 * much later. A caller reads in slices ({@link #FIRST_READ_SLICE_MILLIS}), so that it also leaves
 * soon after another thread completes its answer.
 * Only a plain socket is read by callers. A caller's read has its deadline as a timeout, and
 * whether a TLS socket stays usable after a read timed out part-way through a record is not
 * checked here, so a TLS connection keeps its reader thread for everything.
 */
final class SocketTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(SocketTransportClient.class);
    private static final long CLOSE_JOIN_MILLIS = 2_000;
    /**
     * A caller reads in slices and looks at its answer between them: an answer that another
     * thread completes (a stage derived on another thread, a document parsed off the reading
     * thread) cannot end a blocking read, so the slice bounds how long the caller reads on after
     * it. The first slice is twice as long as the connection's last answer took to come, at least
     * this long and at most {@link #LONGEST_READ_SLICE_MILLIS}; a slice that runs out with nothing
     * read doubles the next, up to that longest. So a caller whose answer comes when answers
     * usually do reads it in one go, without a read that times out on the way, and one whose
     * answer another thread completes leaves about as soon as that answer would have come.
     */
    static final long FIRST_READ_SLICE_MILLIS = 1;
    static final long LONGEST_READ_SLICE_MILLIS = 50;

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Socket socket;
    private volatile OutputStream out;
    private Thread reader;
    private ClientHandler handler;
    private volatile Throwable cause;
    /** Held by whoever reads the socket and delivers what it read: the reader thread or a caller. */
    private final ReentrantLock turn = new ReentrantLock();
    /** Who waits without the turn, and how long the reader thread stays away after a caller's. */
    private final CallerTurns turns = new CallerTurns();
    private volatile boolean callersRead;
    /** A caller's first read slice, from how long the last answer a caller read took. */
    private volatile long firstSliceMillis = FIRST_READ_SLICE_MILLIS;
    private InputStream in;
    /** Guarded by {@link #turn}. */
    private FrameReader frames;
    /** Whether a caller left its deadline as the socket's read timeout; guarded by {@link #turn}. */
    private boolean readTimeoutSet;
    /** Set under {@link #turn} when a caller's read met the end of the stream or an error. */
    private volatile boolean inputEnded;
    private volatile Throwable inputFailure;
    /**
     * Set as a caller leaves the turn with whole frames read and not delivered (those after its
     * answer): the reader thread delivers them at once rather than staying away.
     */
    private volatile boolean leftUndelivered;

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
        this.handler = handler;
        this.out = s.getOutputStream();
        this.in = s.getInputStream();
        this.frames = new FrameReader(codec, options.maxFrameBytes());
        this.callersRead = !(s instanceof SSLSocket);
        this.socket = s;
        reader = new Thread(this::readLoop, "salgate-socket-client-" + s.getLocalPort());
        reader.setDaemon(true);
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

    @Override
    public void readWhileWaiting(Future<?> answer, long deadlineNanos) {
        if (!callersRead || answer.isDone() || turn.isHeldByCurrentThread() || closed.get()) {
            return;
        }
        turns.callerReads();
        if (!turn.tryLock()) {
            noteWaitingWithoutTurn(answer, deadlineNanos);
            return;
        }
        long started = System.nanoTime();
        try {
            long sliceMillis = firstSliceMillis;
            while (!inputEnded && !deliverUntilDone(answer)) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                socket.setSoTimeout((int) Math.max(1, Math.min(sliceMillis, TimeUnit.NANOSECONDS.toMillis(left))));
                readTimeoutSet = true;
                try {
                    if (frames.readFrom(in) < 0) {
                        endInput(null);
                    }
                    sliceMillis = firstSliceMillis; // something came: the answer may be done now, elsewhere too
                } catch (SocketTimeoutException e) {
                    sliceMillis = Math.min(2 * sliceMillis, LONGEST_READ_SLICE_MILLIS);
                } catch (IOException | RuntimeException e) {
                    endInput(e);
                }
            }
        } catch (CodecException | IOException | RuntimeException e) {
            endInput(e); // the socket is closed, or what it held did not decode
        } finally {
            if (answer.isDone()) {
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                firstSliceMillis = Math.max(FIRST_READ_SLICE_MILLIS, Math.min(LONGEST_READ_SLICE_MILLIS, 2 * tookMillis));
            }
            turns.callerReads();
            leftUndelivered = frames.holdsWholeFrame();
            turn.unlock();
            if (inputEnded || leftUndelivered || turns.someoneWaitsWithoutTurn()) {
                LockSupport.unpark(reader);
            }
        }
    }

    /**
     * Notes that a caller waits for {@code answer} while another thread holds the turn, and leaves
     * the waiting to the caller: whoever holds the turn delivers the answer, and the reader thread
     * does not stay away from the socket while the answer is due.
     */
    private void noteWaitingWithoutTurn(Future<?> answer, long deadlineNanos) {
        turns.waitsWithoutTurn(answer, deadlineNanos);
        LockSupport.unpark(reader); // the holder may have left before the note: the reader reads for it
    }

    /** A caller's read met the end: the reader thread closes the connection and tells the handler. */
    private void endInput(Throwable why) {
        inputFailure = why;
        inputEnded = true;
    }

    /**
     * Reads once and delivers every whole frame; called with the turn held.
     *
     * @return false at the end of the stream
     */
    private boolean readAndDeliver() throws IOException, CodecException {
        if (frames.readFrom(in) < 0) {
            return false;
        }
        deliverWhole();
        return true;
    }

    /** Delivers every whole frame held; called with the turn held. */
    private void deliverWhole() throws CodecException {
        Message message;
        while ((message = frames.next()) != null) {
            deliver(message);
        }
    }

    /**
     * Delivers the whole frames held, in order, until {@code answer} is done; the frames after it
     * stay for the next to hold the turn. Called by a caller with the turn held.
     *
     * @return whether the answer is done
     */
    private boolean deliverUntilDone(Future<?> answer) throws CodecException {
        Message message;
        while (!answer.isDone() && (message = frames.next()) != null) {
            deliver(message);
        }
        return answer.isDone();
    }

    private void deliver(Message message) {
        try {
            handler.messageReceived(message);
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on a message", e);
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
        LockSupport.unpark(r);
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
            queue.discard();
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

    private void readLoop() {
        Throwable failure = null;
        try {
            while (!closed.get()) {
                if (!leftUndelivered && !turns.someoneWaitsWithoutTurn()) {
                    long stay = turns.ownThreadStaysAwayNanos(turn.isLocked());
                    if (stay > 0) {
                        LockSupport.parkNanos(this, stay);
                        continue;
                    }
                }
                if (!turn.tryLock()) {
                    // a caller reads; it wakes this thread as it leaves if others wait
                    LockSupport.parkNanos(this, turns.ownThreadStaysAwayNanos(true));
                    continue;
                }
                try {
                    if (inputEnded) {
                        failure = inputFailure;
                        break;
                    }
                    if (readTimeoutSet) { // a caller's deadline: the reader thread waits without one
                        socket.setSoTimeout(0);
                        readTimeoutSet = false;
                    }
                    if (leftUndelivered) {
                        leftUndelivered = false;
                        deliverWhole();
                    }
                    if (!readAndDeliver()) {
                        break;
                    }
                } finally {
                    turn.unlock();
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
