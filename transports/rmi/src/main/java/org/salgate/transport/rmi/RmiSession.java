package org.salgate.transport.rmi;

import java.io.IOException;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.server.Unreferenced;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's session on an RMI agent. Frames arrive through its own exported {@link Endpoint} and
 * are handed to the server handler on the calling thread. A call may carry back the first frame the
 * agent sends within {@value #CALL_WAIT_MILLIS} ms (its answer, as a rule) when nothing sent before
 * is still on the way; all else is pushed, one push at a time, by the session's own pusher thread,
 * so a slow client holds up only its own pushes.
 */
final class RmiSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(RmiSession.class);

    /** Most frames in one push; the client's filter admits no larger batch. */
    static final int MAX_BATCH_FRAMES = 512;
    /** Bytes after which a push takes no further frame. */
    private static final long MAX_BATCH_BYTES = 256 * 1024;
    /** How long a call that may carry a frame back waits for one; a later frame is pushed. */
    static final long CALL_WAIT_MILLIS = 20;
    private static final byte[] NO_ANSWER = new byte[0];

    private enum State { OPEN, CLOSING, CLOSED }

    private final String remoteAddress;
    private final CallbackRemote callback;
    private final RmiTransportServer server;
    private final ServerHandler handler;
    private final Endpoint endpoint = new Endpoint();
    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);
    /** Held while the handler is called, so that it sees opened, messages, closed one at a time. */
    private final Object delivery = new Object();
    private final Thread pusher;
    /** The bytes of the push under way, given back to the queue by whoever ends it first: the pusher or {@link #finish}. */
    private final AtomicLong pushing = new AtomicLong();
    /** Guards {@link #waiting}: the call waiting for a frame to carry back, or null (or done). */
    private final Object turn = new Object();
    private CompletableFuture<byte[]> waiting;

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

    /** A frame goes back with the call waiting for one, when nothing sent before it is still on the way. */
    @Override
    protected void queue(Message message, byte[] encoded) {
        synchronized (turn) {
            if (waiting != null && pushing.get() == 0 && !queue().hasWaiting() && waiting.complete(encoded)) {
                return;
            }
        }
        super.queue(message, encoded);
    }

    /** Lets the waiting call return without a frame, so that what follows is pushed. */
    private void release() {
        synchronized (turn) {
            if (waiting != null) {
                waiting.complete(NO_ANSWER);
            }
        }
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

    /**
     * A frame the client sent, handed to the handler; one over the limit never gets here
     * ({@link RmiFilters#frames}). Returns the frame the call carries back, or none.
     */
    private byte[] call(byte[] frame, boolean carry) throws RemoteException {
        if (frame == null || frame.length == 0) {
            abort(new CodecException("the client sent an empty frame"), true);
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
                abort(e, true);
                throw new RemoteException("the frame is not a valid message (" + e.getMessage() + "); the session is closed");
            }
            if (carry) {
                synchronized (turn) { // before the handler, which may answer at once
                    if ((waiting == null || waiting.isDone()) && pushing.get() == 0 && isOpen()) {
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
                abort(e, true);
                throw new RemoteException("the agent failed on this message (" + e + "); the session is closed");
            }
        }
        return call == null ? NO_ANSWER : await(call);
    }

    /** The frame {@code call} carries back when one comes in time, else none (what comes later is pushed). */
    private static byte[] await(CompletableFuture<byte[]> call) {
        try {
            return call.get(CALL_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            // no frame in time
        }
        call.complete(NO_ANSWER);
        return call.join();
    }

    private void pushLoop() {
        while (state.get() != State.CLOSED) {
            OutboundQueue.Batch<byte[]> batch;
            synchronized (turn) { // a push goes after what a waiting call carries back, and ends that wait
                batch = queue().next(MAX_BATCH_FRAMES, MAX_BATCH_BYTES);
                pushing.set(batch.bytes());
            }
            if (batch.isEmpty()) {
                if (state.get() == State.CLOSING) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            }
            release();
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
                queue().written(pushing.getAndSet(0)); // taken or dropped
            }
        }
        if (state.compareAndSet(State.CLOSING, State.CLOSED)) {
            tellClient("");
            finish(null, false);
        }
    }

    /** Runs once: after the pusher drained a closing session, or after the session was aborted. */
    private void finish(Throwable why, boolean tellClient) {
        queue().discard(); // drained or dropped by now; this gives back the session's share of the budget
        queue().written(pushing.getAndSet(0)); // a push still under way no longer counts
        RmiTransportServer.unexport(endpoint);
        if (why != null) {
            LOG.debug("session {} closed: {}", id(), why.toString());
        }
        synchronized (delivery) {
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
