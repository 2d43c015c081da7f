package org.salgate.transport.rmi;

import java.io.IOException;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.server.Unreferenced;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.OpenSessions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's session on an RMI agent, exported as the {@link SessionRemote} the client talks to
 * (a client that vanishes is noticed when it stops polling, or its lease runs out). Frames it sends
 * are handed to the server handler on the calling thread. A call may carry back the first frame the
 * agent sends within {@value #CALL_WAIT_MILLIS} ms (its answer, as a rule) when nothing sent before
 * is still on the way; all else waits in the outbound queue for the client's next {@link
 * #poll}, so a slow client holds up only its own frames, and the queue's bounds and the
 * memory budget hold what it does not take.
 */
final class RmiSession extends QueuedSession implements SessionRemote, Unreferenced {

    private static final Logger LOG = LoggerFactory.getLogger(RmiSession.class);

    /** Most frames one poll takes. */
    static final int MAX_BATCH_FRAMES = 512;
    /** Bytes after which a poll takes no further frame. */
    private static final long MAX_BATCH_BYTES = 256 * 1024;
    /** How long a call that may carry a frame back waits for one; a later frame goes with a poll. */
    static final long CALL_WAIT_MILLIS = 20;
    /** How long a poll waits for frames before it returns none and the client polls again. */
    static final long POLL_WAIT_MILLIS = 5_000;
    private static final byte[] NO_ANSWER = new byte[0];
    private static final byte[][] NO_FRAMES = new byte[0][];

    private enum State { OPEN, CLOSING, CLOSED }

    private final String remoteAddress;
    private final ServerHandler handler;
    /** The server's open sessions, which this one leaves when it finishes. */
    private final OpenSessions<RmiSession> sessions;
    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);
    /** Held while the handler is called, so that it sees opened, messages, closed one at a time. */
    private final Object delivery = new Object();
    /**
     * The bytes of the batch the last poll took, given back to the queue when the client polls again
     * (it has handed the batch on by then) or by whoever ends the session first.
     */
    private final AtomicLong polled = new AtomicLong();
    /**
     * Guards {@link #waiting} (the call waiting for a frame to carry back, or null, or done), and
     * whether a poll is under way and when the last one ended; polls wait on it for frames.
     */
    private final Object turn = new Object();
    private CompletableFuture<byte[]> waiting;
    private boolean polling;
    private long lastPollEnded = System.nanoTime();
    /** What a poll tells the client when the agent closed the session for an error; null when it did not. */
    private volatile String closedFor;

    RmiSession(long id, String remoteAddress, ServerOptions options, MemoryBudget budget, ServerHandler handler,
            OpenSessions<RmiSession> sessions) {
        super(id, options, budget);
        this.remoteAddress = remoteAddress;
        this.handler = handler;
        this.sessions = sessions;
    }

    /** Tells the handler; called once, before the client gets the session. */
    void start() {
        synchronized (delivery) {
            HandlerCalls.run(() -> handler.sessionOpened(this), "opening", this);
        }
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    /** A frame goes back with the call waiting for one, when nothing sent before it is still on the way. */
    @Override
    protected void queue(Message message, byte[] encoded) {
        synchronized (turn) {
            if (waiting != null && polled.get() == 0 && !queue().hasWaiting() && waiting.complete(encoded)) {
                return;
            }
        }
        super.queue(message, encoded);
    }

    /**
     * Frames wait in the queue, or the session is closing: the waiting call returns without a frame,
     * so that what follows goes with a poll, and the poll wakes.
     */
    @Override
    protected void startWriting() {
        synchronized (turn) {
            if (waiting != null) {
                waiting.complete(NO_ANSWER);
            }
            turn.notifyAll();
        }
    }

    @Override
    public boolean isOpen() {
        return state.get() == State.OPEN;
    }

    /** What was sent still goes with the client's polls; then the poll tells it the session ended. */
    @Override
    public void close() {
        if (state.compareAndSet(State.OPEN, State.CLOSING)) {
            queue().close();
            startWriting();
        }
    }

    /**
     * Closes now, dropping what is queued; the handler is told {@code why} (null for a normal close),
     * and so is a poll under way, on a thread of its own, as this may run under another session's
     * locks (a send from another session's call that passed this one's limit).
     */
    @Override
    protected void abort(Throwable why) {
        State previous = state.getAndSet(State.CLOSED);
        if (previous != State.CLOSED) {
            if (why != null) {
                closedFor = String.valueOf(why.getMessage());
            }
            queue().discard();
            startWriting();
            Thread closer = new Thread(() -> finish(previous == State.OPEN ? why : null), "salgate-rmi-close-" + id());
            closer.setDaemon(true);
            closer.start();
        }
    }

    /** The next batch, none once {@link #POLL_WAIT_MILLIS} passed, or null when the session ended or drained closing. */
    private byte[][] awaitFrames() throws RemoteException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(POLL_WAIT_MILLIS);
        synchronized (turn) {
            while (true) {
                State now = state.get();
                if (now == State.CLOSED) {
                    if (closedFor != null) {
                        throw new RemoteException(closedFor);
                    }
                    return null;
                }
                OutboundQueue.Batch<byte[]> batch = queue().next(MAX_BATCH_FRAMES, MAX_BATCH_BYTES);
                if (!batch.isEmpty()) {
                    polled.set(batch.bytes());
                    if (waiting != null) { // what follows these goes after them, with a poll
                        waiting.complete(NO_ANSWER);
                    }
                    return batch.items().toArray(NO_FRAMES);
                }
                if (now == State.CLOSING) {
                    return null;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return NO_FRAMES;
                }
                try {
                    turn.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return NO_FRAMES;
                }
            }
        }
    }

    /**
     * Closes the session when no poll was under way for longer than {@code maxAbsence}: its client
     * is gone, or stopped taking frames.
     */
    void closeIfAbandoned(Duration maxAbsence) {
        boolean abandoned;
        synchronized (turn) {
            abandoned = !polling && System.nanoTime() - lastPollEnded > maxAbsence.toNanos();
        }
        if (abandoned) {
            abort(new IOException("the client did not poll for frames for more than " + maxAbsence.toMillis()
                    + " ms, so it is taken as gone"));
        }
    }

    /** Runs once: after a poll drained a closing session, or after the session was aborted. */
    private void finish(Throwable why) {
        queue().discard(); // drained or dropped by now; this gives back the session's share of the budget
        queue().written(polled.getAndSet(0)); // a batch not yet handed on no longer counts
        RmiTransportServer.unexport(this);
        if (why != null) {
            LOG.debug("session {} closed: {}", id(), why.toString());
        }
        synchronized (delivery) {
            HandlerCalls.run(() -> handler.sessionClosed(this, why), "closing", this);
        }
        sessions.remove(this);
    }

    /**
     * A frame the client sent, handed to the handler; one over the limit never gets here
     * ({@link RmiFilters#frames}). Returns the frame the call carries back, or none.
     */
    @Override
    public byte[] call(byte[] frame, boolean carry) throws RemoteException {
        if (frame == null || frame.length == 0) {
            abort(new CodecException("the client sent an empty frame"));
            throw new RemoteException("an empty frame is not a message; the session is closed");
        }
        CompletableFuture<byte[]> call = null;
        synchronized (delivery) {
            if (state.get() != State.OPEN) {
                throw new NoSuchObjectException("the session is closed");
            }
            Message message;
            try {
                message = codec().decode(frame, 0, frame.length);
            } catch (CodecException e) {
                abort(e);
                throw new RemoteException("the frame is not a valid message (" + e.getMessage() + "); the session is closed");
            }
            if (carry) {
                synchronized (turn) { // before the handler, which may answer at once
                    if ((waiting == null || waiting.isDone()) && polled.get() == 0 && isOpen()) {
                        call = waiting = new CompletableFuture<>();
                    }
                }
            }
            try {
                handler.messageReceived(this, message);
            } catch (RuntimeException e) {
                LOG.warn("the handler failed on a message of session {}", id(), e);
            } catch (Error e) {
                // out of memory, say: RMI would answer this call with the error and keep the session
                abort(e);
                throw new RemoteException("the agent failed on this message (" + e + "); the session is closed");
            }
        }
        // the frame the call carries back when one comes in time, else none (what comes later goes with a poll)
        return call == null ? NO_ANSWER
                : call.completeOnTimeout(NO_ANSWER, CALL_WAIT_MILLIS, TimeUnit.MILLISECONDS).join();
    }

    /** The client takes the frames queued for it, one poll at a time; see {@link SessionRemote#poll}. */
    @Override
    public byte[][] poll() throws RemoteException {
        synchronized (turn) {
            if (polling) {
                throw new RemoteException("this session is being polled already; poll it one call at a time");
            }
            polling = true;
        }
        try {
            queue().written(polled.getAndSet(0)); // the client handed the last batch on before it polled again
            byte[][] frames = awaitFrames();
            if (frames == null && state.compareAndSet(State.CLOSING, State.CLOSED)) {
                finish(null); // what the closing session held went out: now it ends
            }
            return frames;
        } finally {
            synchronized (turn) {
                polling = false;
                lastPollEnded = System.nanoTime();
            }
        }
    }

    @Override
    public void leave() {
        abort(null);
    }

    @Override
    public void unreferenced() {
        abort(new IOException("the client went away (its RMI lease ran out)"));
    }
}
