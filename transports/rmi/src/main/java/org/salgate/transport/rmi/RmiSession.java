package org.salgate.transport.rmi;

import java.io.IOException;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.rmi.server.Unreferenced;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's session on an RMI agent. Frames arrive through its own exported {@link Endpoint} and
 * are handed to the server handler on the calling thread. A call may carry its answer back when it
 * comes within {@value #CALL_WAIT_MILLIS} ms and nothing sent before is still on the way; all else is
 * pushed, one push at a time, by the session's own pusher thread, so a slow client holds up only
 * its own pushes.
 */
final class RmiSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(RmiSession.class);

    /** Most frames in one push; the client's filter admits no larger batch. */
    static final int MAX_BATCH_FRAMES = 512;
    /** Bytes after which a push takes no further frame. */
    private static final long MAX_BATCH_BYTES = 256 * 1024;
    /** How long a call that may carry its answer back waits for it; a later answer is pushed. */
    static final long CALL_WAIT_MILLIS = 20;
    private static final byte[] NO_ANSWER = new byte[0];

    private enum State { OPEN, CLOSING, CLOSED }

    private final String remoteAddress;
    private final CallbackRemote callback;
    private final RmiTransportServer server;
    private final ServerHandler handler;
    private final Endpoint endpoint = new Endpoint();
    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Held while the handler is called, so that it sees opened, messages, closed one at a time. */
    private final Object delivery = new Object();
    private boolean closedDelivered;
    private final Thread pusher;
    /** Guards {@link #waiting} and {@link #pushing}; a waiting call waits on it. */
    private final Object turn = new Object();
    /** The call waiting for its answer, or null. */
    private WaitingCall waiting;
    /** A push is under way: what the agent sends goes behind it. */
    private boolean pushing;

    RmiSession(long id, String remoteAddress, CallbackRemote callback, RmiTransportServer server) {
        super(id, server.options(), server.budget());
        this.remoteAddress = remoteAddress;
        this.callback = callback;
        this.server = server;
        this.handler = server.handler();
        this.pusher = new Thread(this::pushLoop, "salgate-rmi-push-" + id);
        this.pusher.setDaemon(true);
    }

    /** The remote object the client talks to. */
    Endpoint endpoint() {
        return endpoint;
    }

    /** Tells the handler and starts pushing; called once, before the client gets the session. */
    void start() {
        synchronized (delivery) {
            HandlerCalls.run(() -> handler.sessionOpened(this), "opening", this);
        }
        pusher.start();
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    /** An answer goes back with the call waiting for it, when nothing sent before it is still on the way. */
    @Override
    protected void queue(Message message, byte[] encoded) {
        Object key = answerKey(message);
        if (key != null) {
            synchronized (turn) {
                if (waiting != null && waiting.key.equals(key)) {
                    boolean carried = !pushing && !queue().hasWaiting();
                    endWait(carried ? encoded : NO_ANSWER);
                    if (carried) {
                        return;
                    }
                }
            }
        }
        super.queue(message, encoded);
    }

    /** What pairs a request with its response and a hello with its reply; null for other messages. */
    private static Object answerKey(Message message) {
        return message instanceof Request r ? (Object) r.id() : message instanceof Response r ? (Object) r.id()
                : message instanceof Hello || message instanceof HelloReply ? Hello.class : null;
    }

    @Override
    protected void startWriting() {
        LockSupport.unpark(pusher);
    }

    @Override
    public boolean isOpen() {
        return state.get() == State.OPEN;
    }

    /** What was sent is pushed first; then the client is told and the session ends. */
    @Override
    public void close() {
        if (state.compareAndSet(State.OPEN, State.CLOSING)) {
            queue().close();
            LockSupport.unpark(pusher);
            release();
        }
    }

    @Override
    protected void abort(Throwable why) {
        abort(why, true);
    }

    /**
     * Closes now, dropping what is queued; the rest runs on a thread of its own, as it calls the client.
     *
     * @param why reported to the handler; null for a normal close
     * @param tellClient whether the client may still be listening and should hear why
     */
    void abort(Throwable why, boolean tellClient) {
        State previous = state.getAndSet(State.CLOSED);
        if (previous != State.CLOSED) {
            queue().discard();
            LockSupport.unpark(pusher);
            release();
            Thread closer = new Thread(() -> finish(previous == State.OPEN ? why : null, tellClient),
                    "salgate-rmi-close-" + id());
            closer.setDaemon(true);
            closer.start();
        }
    }

    /** Lets the waiting call return without its answer, which is then pushed. */
    private void release() {
        synchronized (turn) {
            if (waiting != null) {
                endWait(NO_ANSWER);
            }
        }
    }

    /** Ends the wait of the waiting call, which returns {@code answer} (empty for none); under {@link #turn}. */
    private void endWait(byte[] answer) {
        waiting.answer = answer;
        waiting = null;
        turn.notifyAll();
    }

    /** A frame the client sent, handed to the handler; returns its answer when the call carries it back, else none. */
    private byte[] call(byte[] frame, boolean carry) throws RemoteException {
        if (frame == null || frame.length == 0) {
            abort(new CodecException("the client sent an empty frame"), true);
            throw new RemoteException("an empty frame is not a message; the session is closed");
        }
        if (frame.length > server.options().maxFrameBytes()) {
            oversize(frame.length);
            throw new RemoteException("a frame of " + frame.length + " bytes is over the limit; the session is closed");
        }
        WaitingCall call = null;
        synchronized (delivery) {
            if (state.get() != State.OPEN || closedDelivered) {
                throw new NoSuchObjectException("the session is closed");
            }
            Message message;
            try {
                message = codec().decode(frame, 0, frame.length);
            } catch (CodecException e) {
                abort(e, true);
                throw new RemoteException("the frame is not a valid message (" + e.getMessage() + "); the session is closed");
            }
            Object key = carry ? answerKey(message) : null;
            if (key != null) {
                synchronized (turn) { // before the handler, which may answer at once
                    if (waiting == null && !pushing && isOpen()) {
                        call = waiting = new WaitingCall(key);
                    }
                }
            }
            try {
                handler.messageReceived(this, message);
            } catch (RuntimeException e) {
                LOG.warn("the handler failed on a message of session {}", id(), e);
            } catch (Error e) {
                // out of memory, say: RMI would answer this call with the error and keep the session
                abort(e, true);
                throw new RemoteException("the agent failed on this message (" + e + "); the session is closed");
            }
        }
        return call == null ? NO_ANSWER : await(call);
    }

    /** {@code call}'s answer when it comes in time, else none (it is pushed). */
    private byte[] await(WaitingCall call) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_WAIT_MILLIS);
        synchronized (turn) {
            try {
                for (long left; call.answer == null && (left = deadline - System.nanoTime()) > 0; ) {
                    TimeUnit.NANOSECONDS.timedWait(turn, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (call.answer == null) { // still the waiting call: no answer yet
                endWait(NO_ANSWER);
            }
            return call.answer;
        }
    }

    /** A call waiting for the answer that pairs with {@code key}; {@code answer} is set as the wait ends. */
    private static final class WaitingCall {
        final Object key;
        byte[] answer;

        WaitingCall(Object key) {
            this.key = key;
        }
    }

    private void pushLoop() {
        while (state.get() != State.CLOSED) {
            OutboundQueue.Batch<byte[]> batch;
            synchronized (turn) {
                batch = queue().next(MAX_BATCH_FRAMES, MAX_BATCH_BYTES);
                pushing = !batch.isEmpty();
                if (pushing) {
                    release();
                }
            }
            if (batch.isEmpty()) {
                if (state.get() == State.CLOSING) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            }
            try {
                callback.push(batch.items().toArray(new byte[0][]));
            } catch (RemoteException e) {
                abort(new IOException("pushing to the client failed, so it is taken as gone: " + e.getMessage(), e),
                        false);
                return;
            } catch (RuntimeException | Error e) {
                // thrown by the client's side of the call, or out of memory here: this session cannot go on,
                // and a pusher that died here would leave it open and never writable again
                abort(e instanceof Error ? e : new IOException("the client failed taking pushed frames: " + e, e), true);
                return;
            } finally {
                synchronized (turn) {
                    pushing = false;
                }
            }
            queue().written(batch.bytes());
        }
        if (state.compareAndSet(State.CLOSING, State.CLOSED)) {
            tellClient("");
            finish(null, false);
        }
    }

    private void finish(Throwable why, boolean tellClient) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        queue().discard(); // drained or dropped by now; this gives back the session's share of the budget
        try {
            UnicastRemoteObject.unexportObject(endpoint, true);
        } catch (NoSuchObjectException e) {
            // never exported or already gone
        }
        if (why != null) {
            LOG.debug("session {} closed: {}", id(), why.toString());
        }
        synchronized (delivery) {
            closedDelivered = true;
            HandlerCalls.run(() -> handler.sessionClosed(this, why), "closing", this);
        }
        server.sessionFinished(this);
        if (tellClient) { // last: a client that does not answer must not hold up the rest
            tellClient(why == null ? "" : String.valueOf(why.getMessage()));
        }
    }

    private void tellClient(String reason) {
        try {
            callback.sessionClosed(reason);
        } catch (RemoteException e) {
            LOG.debug("could not tell the client of session {} that it closed", id(), e);
        }
    }

    /** The frame limit was broken by an array of {@code length} bytes, which the filter refused. */
    void oversize(long length) {
        abort(new Framing.FrameTooLargeException(length, server.options().maxFrameBytes()), true);
    }

    /** The exported face of the session. A client that vanishes is noticed when its lease runs out. */
    final class Endpoint implements SessionRemote, Unreferenced {

        @Override
        public byte[] call(byte[] frame, boolean carry) throws RemoteException {
            return RmiSession.this.call(frame, carry);
        }

        @Override
        public void close() {
            abort(null, false);
        }

        @Override
        public void unreferenced() {
            abort(new IOException("the client went away (its RMI lease ran out)"), false);
        }
    }
}
