package org.salgate.transport.mina;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.filter.ssl.EncryptedWriteRequest;
import org.apache.mina.transport.socket.nio.NioSession;
import org.salgate.transport.CallerTurns;
import org.salgate.wire.CodecException;
import org.salgate.transport.FrameReader;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processor of one MINA client connection, whose senders write and whose waiting callers read
 * on their own threads, as a blocking-socket client such as RMI's does: a synchronous request and
 * its answer then cross no thread. MINA's processor loop does the rest. Over TLS as on a plain
 * socket: MINA's {@code SslFilter} encrypts on the thread that writes and decrypts on the thread
 * that reads, so a sender that writes and a caller that reads do the cipher work themselves.
 *
 * <p><b>Writing.</b> MINA hands a write to its processor ({@link #write(NioSession, WriteRequest)})
 * when the session has nothing queued; the processor queues it and wakes its loop, which writes it.
 * Here a sender's own batch ({@link IoWriter#writesOnThisThread}), with nothing else of the
 * session's on its way, goes to the socket at once on the sender's thread, and MINA hears that it
 * was sent as from its loop; a part the socket did not take is queued for the loop as MINA would.
 * Nothing else is on its way when the session's scheduled bytes (which MINA counts up as a write
 * enters its filter chain's head and down as its loop writes) are this write's alone: whatever was
 * handed to the loop before, the loop has written, so this write cannot overtake it, even while the
 * loop is between taking its last request from the queue and marking it as its current one. Over
 * TLS the batch reaches the processor as the TLS filter's records: the record that ends the batch
 * (all of a batch that fits one record) may leave at once; a larger batch's earlier records go to
 * the loop, since each record written at once is acknowledged on the sender's stack, where the
 * filter encrypts and forwards the next (a batch of hundreds of records would overflow it). Every
 * other write (records that a reader's decryption or the loop's acknowledgements produce, a
 * close's alert) is the loop's too, so that no thread writes at once holding the TLS filter's write
 * lock without the batch writer's, which acknowledgements reaching the writer take after it.
 *
 * <p><b>Reading</b> takes turns, as the socket transport's client does. A caller that waits for an
 * answer ({@link #readWhileWaiting}) and finds the turn free reads the socket itself, through a
 * selector of its own, and delivers what comes, in order, until its answer is in; the whole frames
 * after its answer are left for the loop, which delivers them before it selects again. On a plain
 * socket the caller reads into the connection's frame reader directly; over TLS it hands what it
 * read to MINA's filter chain, as the loop does, and the handler only appends what the TLS filter
 * decrypted to the frame reader ({@link #readByCallerHere}), for the caller to deliver. The loop
 * reads the rest of the time: while nobody waits, and for any caller that found the turn taken. Its
 * reads take the turn too ({@link #read(NioSession, IoBuffer)}), until its next select. While a
 * caller holds the turn, and for {@link CallerTurns#CALLER_TURN_NANOS} after a caller's turn, the
 * loop does not select the session for reads, so that back-to-back calls each find the socket free
 * and the loop asleep. The loop looks in again on {@link CallerTurns}' timer, a select that ends
 * when the stay does, and the stay lengthens while it keeps finding callers reading
 * ({@link CallerTurns#ownThreadStaysAwayNanos}); a caller that leaves wakes it only if it leaves
 * work: frames after its answer, a caller waiting without the turn, the end of the stream. A caller
 * waiting without the turn wakes it too. A frame the agent pushes while nobody waits is therefore
 * read at most {@link CallerTurns#LONGEST_STAY_AWAY_NANOS} later. Only the loop changes the
 * session's interest in reading.
 */
final class CallerTurnProcessor extends QuietLoopProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(CallerTurnProcessor.class);

    /**
     * A caller waits for the socket in slices of at most this long at first, doubling up to
     * {@link #LONGEST_WAIT_SLICE_MILLIS} while nothing comes, and looks at its answer between them,
     * for an answer that is no {@link CompletionStage}: another thread can complete it without ending
     * the wait. A stage's completion elsewhere ends the wait, and its caller waits in the longest slices.
     */
    static final long FIRST_WAIT_SLICE_MILLIS = 1;
    static final long LONGEST_WAIT_SLICE_MILLIS = 50;

    /** Whether what the socket holds goes through MINA's filter chain (TLS) before the frame reader. */
    private final boolean readsThroughFilters;
    /** Held by whoever reads the socket and delivers what it read: the loop, or a caller. */
    private final ReentrantLock turn = new ReentrantLock();
    private final CallerTurns turns = new CallerTurns();
    /** The session, once MINA has given it to this processor. */
    private volatile NioSession session;
    /** The session's batch writer, whose own writes may leave on the sender's thread. */
    private volatile IoWriter writer;
    /** The frames and the delivery a caller left whole frames in, for the loop to deliver. */
    private volatile FrameReader heldFrames;
    private volatile Consumer<Message> heldDelivery;
    /** Whether the loop has stopped selecting the session for reads, leaving them to callers; loop only. */
    private boolean readsLeftToCallers;
    /** Set as a caller leaves the turn with whole frames after its answer, for the loop to deliver. */
    private volatile boolean leftUndelivered;
    /** Set as a caller meets the end of the stream or an error: the loop reads again, to see it. */
    private volatile boolean inputEnded;
    /** The callers' own registration of the socket; written with {@link #turn} held. */
    private volatile Selector callersSelector;
    /** Set once the session closes or the processor is disposed: callers read no more. */
    private volatile boolean closing;
    /** Ends the wait of the caller holding the turn, unless it is the completing thread. */
    private final BiConsumer<Object, Throwable> wakeCaller = (result, failure) -> {
        Selector selector = callersSelector;
        if (selector != null && !turn.isHeldByCurrentThread()) {
            selector.wakeup();
        }
    };
    /** Read by tests: writes made whole on the sender's thread, and those whose rest the loop wrote. */
    private final AtomicLong writtenBySenders = new AtomicLong();
    private final AtomicLong restsLeftToLoop = new AtomicLong();
    /** Read by tests: how many callers woke the loop as they gave the turn back. */
    private final AtomicLong loopWokenByLeavingCallers = new AtomicLong();

    /**
     * A processor for one client connection; {@code tls} when MINA's TLS filter is in its chain, so
     * that a caller hands what it reads to the chain rather than to the frame reader.
     */
    CallerTurnProcessor(Executor executor, SelectorProvider provider, boolean tls) {
        super(executor, provider);
        this.readsThroughFilters = tls;
    }

    /** The session's batch writer: a write made under its lock may leave on the sender's thread. */
    void writesOf(IoWriter sessionWriter) {
        writer = sessionWriter;
    }

    @Override
    protected void init(NioSession s) throws Exception {
        super.init(s);
        session = s;
    }

    // ---- writing

    @Override
    public void write(NioSession s, WriteRequest request) {
        if (!writesAtOnce(s, request)) {
            super.write(s, request);
            return;
        }
        IoBuffer buffer = (IoBuffer) request.getMessage();
        int written;
        try {
            written = s.getChannel().write(buffer.buf());
        } catch (IOException e) {
            super.write(s, request); // the loop's write fails the same way and closes the session
            return;
        }
        if (written > 0) {
            s.increaseWrittenBytes(written, System.currentTimeMillis());
        }
        if (buffer.hasRemaining()) {
            restsLeftToLoop.incrementAndGet();
            super.write(s, request); // the rest leaves from the loop
            return;
        }
        writtenBySenders.incrementAndGet();
        s.getFilterChain().fireMessageSent(request); // as MINA's loop reports a buffer sent
    }

    /** Whether {@code request} goes to the socket on this thread (the class comment says when). */
    private boolean writesAtOnce(NioSession s, WriteRequest request) {
        IoWriter w = writer;
        return !onLoopThread() && w != null && w.writesOnThisThread()
                && request.getMessage() instanceof IoBuffer buffer
                && !(request instanceof EncryptedWriteRequest && request.getOriginalRequest() == request)
                && s.isConnected() && s.getCurrentWriteRequest() == null && s.getWriteRequestQueue().isEmpty(s)
                && s.getScheduledWriteBytes() == buffer.remaining();
    }

    /** How many writes went to the socket whole on the sender's thread. */
    long writtenBySenders() {
        return writtenBySenders.get();
    }

    /** How many writes the socket took in part on the sender's thread, the rest left to the loop. */
    long restsLeftToLoop() {
        return restsLeftToLoop.get();
    }

    /** How many callers woke the loop as they gave the turn back, leaving it work. */
    long loopWokenByLeavingCallers() {
        return loopWokenByLeavingCallers.get();
    }

    /** The loop's selector, which MINA replaces when it takes the loop for spinning; for tests. */
    Selector loopSelector() {
        return selector;
    }

    // ---- reading: the callers' side

    /**
     * Reads the socket on this thread until {@code answer} is done or the deadline passes, handing
     * each whole message to {@code deliver}, if the turn is free; otherwise notes that a caller
     * waits and returns at once.
     */
    void readWhileWaiting(Future<?> answer, long deadlineNanos, FrameReader frames, Consumer<Message> deliver) {
        NioSession s = session;
        if (s == null || answer.isDone() || onLoopThread() || turn.isHeldByCurrentThread() || closing
                || inputEnded || s.isClosing()) {
            return;
        }
        turns.callerReads();
        if (!turn.tryLock()) {
            turns.waitsWithoutTurn(answer, deadlineNanos);
            super.wakeup(); // the holder may have left before the note: the loop reads for us
            return;
        }
        try {
            Selector selector = callersSelector(s);
            long firstSliceMillis = CallerTurns.wakeWhenDone(answer, wakeCaller)
                    ? LONGEST_WAIT_SLICE_MILLIS : FIRST_WAIT_SLICE_MILLIS;
            long sliceMillis = firstSliceMillis;
            while (!inputEnded && !deliverUntil(answer::isDone, frames, deliver)) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0 || s.isClosing()) {
                    break;
                }
                int read = readSome(s, frames);
                if (read > 0) {
                    sliceMillis = firstSliceMillis;
                } else if (read < 0) {
                    inputEnded = true;
                } else {
                    selector.select(Math.max(1, Math.min(sliceMillis, TimeUnit.NANOSECONDS.toMillis(left))));
                    selector.selectedKeys().clear();
                    sliceMillis = Math.min(2 * sliceMillis, LONGEST_WAIT_SLICE_MILLIS);
                }
            }
        } catch (CodecException e) {
            LOG.debug("closing the connection: {}", e.getMessage());
            inputEnded = true;
            s.closeNow();
        } catch (ClosedChannelException | ClosedSelectorException e) {
            inputEnded = true; // closed meanwhile: the loop reports it
        } catch (IOException | RuntimeException e) {
            inputEnded = true; // the loop's own read meets the same error, and closes the session
            LOG.debug("a caller's read failed: {}", e.toString());
        } finally {
            turns.callerReads();
            heldFrames = frames;
            heldDelivery = deliver;
            leftUndelivered = frames.holdsWholeFrame();
            turn.unlock();
            if (inputEnded || leftUndelivered || turns.someoneWaitsWithoutTurn()) {
                loopWokenByLeavingCallers.incrementAndGet();
                super.wakeup();
            }
        }
    }

    /**
     * Reads what the socket holds, on the caller's thread with the turn held, into {@code frames}:
     * directly on a plain socket; over TLS through MINA's filter chain, whose TLS filter decrypts it
     * and whose handler appends it ({@link #readByCallerHere}). A failure the chain meets (a bad
     * record) closes the session there. Returns the bytes read from the socket, or -1 at its end.
     */
    private int readSome(NioSession s, FrameReader frames) throws IOException {
        if (!readsThroughFilters) {
            int read = frames.readFrom(s.getChannel());
            if (read > 0) {
                s.increaseReadBytes(read, System.currentTimeMillis());
            }
            return read;
        }
        // A fresh buffer each read, of the size MINA's loop reads with and adapts as it does: the TLS
        // filter keeps a partial record's buffer.
        int size = s.getConfig().getReadBufferSize();
        IoBuffer buffer = IoBuffer.allocate(size);
        int read = s.getChannel().read(buffer.buf());
        if (read > 0) {
            buffer.flip();
            s.getFilterChain().fireMessageReceived(buffer); // counts the bytes read, as for the loop's reads
            if (read << 1 < size) {
                s.decreaseReadBufferSize();
            } else if (read == size) {
                s.increaseReadBufferSize();
            }
        }
        return read;
    }

    /**
     * Whether this thread is a caller reading with the turn: what the filter chain hands the
     * handler here is for the frame reader only, the caller delivering it.
     */
    boolean readByCallerHere() {
        return turn.isHeldByCurrentThread() && !onLoopThread();
    }

    /**
     * Delivers the whole frames held, in order, until {@code done} says so, which it tells; with the
     * turn held. A handler that throws is logged, and the next frame delivered.
     */
    private static boolean deliverUntil(BooleanSupplier done, FrameReader frames, Consumer<Message> deliver)
            throws CodecException {
        Message message;
        while (!done.getAsBoolean() && (message = frames.next()) != null) {
            try {
                deliver.accept(message);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on a message", e);
            }
        }
        return done.getAsBoolean();
    }

    /** The callers' selector, with the socket registered for reading; with the turn held. */
    private Selector callersSelector(NioSession s) throws IOException {
        if (callersSelector == null) {
            Selector selector = Selector.open();
            try {
                ((SelectableChannel) s.getChannel()).register(selector, SelectionKey.OP_READ);
            } catch (IOException | RuntimeException e) {
                selector.close();
                throw e;
            }
            callersSelector = selector;
        }
        return callersSelector;
    }

    /**
     * The session has closed: keeps callers away from now on, and waits for one that reads to
     * leave, so that the close is reported after every message. The turn is held until
     * {@link #closedReported}.
     */
    void closing() {
        closing = true;
        Selector selector = callersSelector;
        if (selector != null) {
            selector.wakeup();
        }
        turn.lock();
    }

    /** The close is reported; see {@link #closing}. */
    void closedReported() {
        if (turn.isHeldByCurrentThread()) {
            turn.unlock();
        }
    }

    // ---- reading: the loop's side

    @Override
    protected long beforeSelect(long timeout) throws Exception {
        releaseLoopsTurn();
        NioSession s = session;
        if (s == null || closing || !s.isConnected()) {
            return timeout;
        }
        if (leftUndelivered && turn.tryLock()) {
            try {
                leftUndelivered = false;
                deliverHeld(s);
            } finally {
                turn.unlock();
            }
        }
        // A caller holds the turn (the loop has just given back its own): it reads whatever comes,
        // and wakes the loop as it leaves if it leaves work (frames, a caller without the turn, the end).
        boolean callerReads = turn.isLocked();
        boolean loopHasWork = inputEnded || !callerReads && (leftUndelivered || turns.someoneWaitsWithoutTurn());
        long stay = loopHasWork ? 0 : turns.ownThreadStaysAwayNanos(callerReads);
        boolean leaveToCallers = stay > 0;
        if (leaveToCallers != readsLeftToCallers) {
            setInterestedInRead(s, !leaveToCallers);
            readsLeftToCallers = leaveToCallers;
        }
        if (!leaveToCallers) {
            return timeout;
        }
        long stayMillis = TimeUnit.NANOSECONDS.toMillis(stay + TimeUnit.MILLISECONDS.toNanos(1) - 1);
        return Math.max(1, Math.min(timeout, stayMillis));
    }

    /** Delivers, on the loop with the turn held, the whole frames a caller left after its answer. */
    private void deliverHeld(NioSession s) {
        try {
            deliverUntil(s::isClosing, heldFrames, heldDelivery);
        } catch (CodecException e) {
            LOG.debug("closing the connection: {}", e.getMessage());
            s.closeNow();
        }
    }

    /** The loop reads only with the turn, which it keeps until its next select; a caller's turn means nothing to read. */
    @Override
    protected int read(NioSession s, IoBuffer buffer) throws Exception {
        if (!turn.isHeldByCurrentThread() && !turn.tryLock()) {
            return 0;
        }
        return super.read(s, buffer);
    }

    @Override
    protected void destroy(NioSession s) throws Exception {
        releaseLoopsTurn();
        super.destroy(s);
    }

    private void releaseLoopsTurn() {
        if (turn.isHeldByCurrentThread()) {
            turn.unlock();
        }
    }

    @Override
    protected void doDispose() throws Exception {
        closing = true;
        try {
            super.doDispose();
        } finally {
            Selector selector = callersSelector;
            if (selector != null) {
                selector.close(); // wakes a caller waiting on it
            }
        }
    }
}
