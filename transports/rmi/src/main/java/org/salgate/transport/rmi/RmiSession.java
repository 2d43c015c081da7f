package org.salgate.transport.rmi;

import java.io.IOException;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.rmi.server.Unreferenced;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * One client's session on an RMI agent. Frames from the client arrive through {@link Endpoint}
 * (exported for this session alone); an answer to a waiting call goes back as its return value,
 * everything else through the session's outbound queue, drained by the session's own pusher
 * thread, so a slow client only ever holds up its own pushes. Every frame sent gets the session's
 * next sequence number, by which the client puts answers and pushes back in order.
 */
final class RmiSession extends QueuedSession {

    private static final Logger LOG = LoggerFactory.getLogger(RmiSession.class);

    /** Most frames in one push; the client's filter admits no larger batch. */
    static final int MAX_BATCH_FRAMES = 512;
    /** Bytes after which a push takes no further frame. */
    private static final long MAX_BATCH_BYTES = 256 * 1024;

    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;

    private final String remoteAddress;
    private final CallbackRemote callback;
    private final RmiTransportServer server;
    private final ServerHandler handler;
    private final int maxFrameBytes;
    /** The sequence numbers of the frames in the queue, in the same order; guarded by itself. */
    private final ArrayDeque<Long> queuedSequences = new ArrayDeque<>();
    private long nextSequence;
    private final Endpoint endpoint = new Endpoint();
    private final Map<Long, PendingCall> waitingCalls = new ConcurrentHashMap<>();
    private final AtomicReference<PendingCall> waitingHello = new AtomicReference<>();
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Held while the handler is called, so that it sees opened, messages, closed one at a time. */
    private final Object delivery = new Object();
    private boolean closedDelivered;
    private final Thread pusher;

    RmiSession(long id, String remoteAddress, CallbackRemote callback, RmiTransportServer server) {
        super(id, server.options(), server.budget());
        this.remoteAddress = remoteAddress;
        this.callback = callback;
        this.server = server;
        this.handler = server.handler();
        var options = server.options();
        this.maxFrameBytes = options.maxFrameBytes();
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
            try {
                handler.sessionOpened(this);
            } catch (RuntimeException e) {
                LOG.warn("the handler failed when session {} opened", id(), e);
            }
        }
        pusher.start();
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    /** An answer goes back as the return value of the call waiting for it, if one is; anything else is queued in order. */
    @Override
    protected void queue(Message message, byte[] frame) {
        PendingCall waiting = null;
        if (message instanceof Response response) {
            waiting = waitingCalls.remove(response.id());
        } else if (message instanceof HelloReply) {
            waiting = waitingHello.getAndSet(null);
        }
        OutboundQueue.Offer offer;
        synchronized (queuedSequences) {
            if (waiting != null && waiting.complete(nextSequence, frame)) {
                nextSequence++;
                return;
            }
            offer = queue().offer(frame);
            if (offer == OutboundQueue.Offer.QUEUED) {
                queuedSequences.addLast(nextSequence++);
            }
        }
        if (offer == OutboundQueue.Offer.OVER_LIMIT) {
            abort(overLimit());
        }
    }

    @Override
    protected void startWriting() {
        LockSupport.unpark(pusher);
    }

    @Override
    public boolean isOpen() {
        return state.get() == OPEN;
    }

    /** What was sent is pushed first; then the client is told and the session ends. */
    @Override
    public void close() {
        if (state.compareAndSet(OPEN, CLOSING)) {
            queue().close();
            LockSupport.unpark(pusher);
        }
    }

    @Override
    protected void abort(Throwable why) {
        abort(why, true);
    }

    /**
     * Closes now, dropping what is queued.
     *
     * @param why reported to the handler; null for a normal close
     * @param tellClient whether the client may still be listening and should hear why
     */
    void abort(Throwable why, boolean tellClient) {
        int previous = state.getAndSet(CLOSED);
        if (previous == CLOSED) {
            return;
        }
        queue().discard();
        LockSupport.unpark(pusher);
        Throwable reported = previous == OPEN ? why : null;
        try {
            server.closer().execute(() -> finish(reported, tellClient));
        } catch (RejectedExecutionException e) {
            finish(reported, false);
        }
    }

    private byte[] call(byte[] frame) throws RemoteException {
        if (frame == null || frame.length == 0) {
            abort(new CodecException("the client sent an empty frame"), true);
            throw new RemoteException("an empty frame is not a message; the session is closed");
        }
        if (frame.length > maxFrameBytes) {
            Framing.FrameTooLargeException tooLarge = new Framing.FrameTooLargeException(frame.length, maxFrameBytes);
            abort(tooLarge, true);
            throw new RemoteException(tooLarge.getMessage() + "; the session is closed");
        }
        PendingCall waiting = null;
        long requestId = 0;
        synchronized (delivery) {
            if (state.get() != OPEN || closedDelivered) {
                throw new NoSuchObjectException("the session is closed");
            }
            Message message;
            try {
                message = codec().decode(frame, 0, frame.length);
            } catch (CodecException e) {
                abort(e, true);
                throw new RemoteException("the frame is not a valid message (" + e.getMessage() + "); the session is closed");
            }
            if (message instanceof Hello) {
                waiting = new PendingCall();
                waitingHello.set(waiting);
            } else if (message instanceof Request request) {
                waiting = new PendingCall();
                requestId = request.id();
                if (waitingCalls.putIfAbsent(requestId, waiting) != null) {
                    waiting = null; // an id already in flight: its answer is pushed
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
        if (waiting == null) {
            return new byte[0];
        }
        byte[] reply = waiting.await(server.callWaitMillis());
        if (reply.length == 0) { // no answer in time: it will be pushed
            waitingCalls.remove(requestId, waiting);
            waitingHello.compareAndSet(waiting, null);
        }
        return reply;
    }

    private void pushLoop() {
        while (state.get() != CLOSED) {
            OutboundQueue.Batch<byte[]> batch = queue().next(MAX_BATCH_FRAMES, MAX_BATCH_BYTES);
            if (batch.isEmpty()) {
                if (state.get() == CLOSING) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            }
            long[] sequences = new long[batch.items().size()];
            synchronized (queuedSequences) {
                for (int i = 0; i < sequences.length; i++) {
                    sequences[i] = queuedSequences.pollFirst();
                }
            }
            try {
                callback.push(sequences, batch.items().toArray(new byte[0][]));
            } catch (RemoteException e) {
                abort(new IOException("pushing to the client failed, so it is taken as gone: " + e.getMessage(), e),
                        false);
                return;
            } catch (RuntimeException e) {
                // thrown by the client's side of the call: it is there, but this session cannot go on,
                // and a pusher that died here would leave the session open and never writable again
                abort(new IOException("the client failed taking pushed frames: " + e, e), true);
                return;
            } catch (Error e) {
                abort(e, true); // out of memory, say: this session ends rather than its pusher alone
                return;
            }
            queue().written(batch.bytes());
        }
        if (state.compareAndSet(CLOSING, CLOSED)) {
            long end;
            synchronized (queuedSequences) {
                end = nextSequence++;
            }
            try {
                callback.sessionClosed(end, "");
            } catch (RemoteException e) {
                LOG.debug("could not tell the client of session {} that it closed", id(), e);
            }
            finish(null, false);
        }
    }

    private void finish(Throwable why, boolean tellClient) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        queue().discard(); // drained or dropped by now; this gives back the session's share of the budget
        for (PendingCall call : waitingCalls.values()) {
            call.cancel();
        }
        waitingCalls.clear();
        PendingCall hello = waitingHello.getAndSet(null);
        if (hello != null) {
            hello.cancel();
        }
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
            try {
                handler.sessionClosed(this, why);
            } catch (RuntimeException e) {
                LOG.warn("the handler failed when session {} closed", id(), e);
            }
        }
        server.sessionFinished(this);
        if (tellClient) { // last: a client that does not answer must not hold up the rest
            try {
                callback.sessionClosed(-1, why == null ? "" : String.valueOf(why.getMessage()));
            } catch (RemoteException e) {
                LOG.debug("could not tell the client of session {} that it closed", id(), e);
            }
        }
    }

    /** The frame limit was broken by an array the filter refused. */
    void oversize(long length) {
        abort(new Framing.FrameTooLargeException(length, maxFrameBytes), true);
    }

    /** The exported face of the session. A client that vanishes is noticed when its lease runs out. */
    final class Endpoint implements SessionRemote, Unreferenced {

        @Override
        public byte[] call(byte[] frame) throws RemoteException {
            return RmiSession.this.call(frame);
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
