package org.salgate.transport.bridge;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.transport.MemoryBudget;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/**
 * A session opened in-process on a {@link ServerHandler}: it speaks to the agent as a remote client
 * would (hello, requests, pushed frames) without encoding anything. Transports whose callers are not
 * salgate clients (a REST call, a Server-Sent Events stream, a typed gRPC call) open one per caller
 * and translate between it and their protocol.
 *
 * <p>{@link #hello} and {@link #call} may be called from any thread; they are handed to the
 * server handler one at a time, as {@link ServerHandler} requires. Answers complete the returned
 * futures; pushed messages ({@link org.salgate.wire.StreamData}, {@link org.salgate.wire.StreamEnded},
 * {@link org.salgate.wire.EventNotice}) go to the {@link Sink}. When either side closes the session,
 * every unanswered call fails with {@link SessionClosedException}.
 *
 * <p>Pushed messages go through the session's {@link OutboundQueue}, as on every other transport:
 * they reach the sink while the caller's connection is writable (the {@code writable} given to
 * {@link #open}), and wait, counted by their estimated encoded size, while it is not. Once the
 * waiting bytes reach the server's high-water mark the session is unwritable and the agent applies
 * its slow-consumer policies; past {@link ServerOptions#maxQueuedBytes()} the session is closed.
 */
public final class BridgeSession implements Session, AutoCloseable {

    /**
     * Where a bridge session's pushed messages and its end go. Called on the agent's threads, or on
     * the thread that calls {@link #writableAgain()}: must not block.
     */
    public interface Sink {

        /** The agent pushed a stream frame, a stream's end or an event. */
        void pushed(Message message);

        /**
         * A batch of {@link #pushed} messages is complete: a sink that writes them to its
         * connection without flushing flushes here, once per batch. Called on the thread that
         * called {@code pushed}.
         */
        default void delivered() {
        }

        /** The session ended; {@code byAgent} when the agent closed it (a refusal, the agent stopping). */
        void closed(boolean byAgent);
    }

    private final ServerHandler handler;
    private final long id;
    private final String remoteAddress;
    private final Sink sink;
    private final BooleanSupplier writable;
    private final OutboundQueue<Message> pushed;
    private final Object delivering = new Object();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final AtomicLong nextRequestId = new AtomicLong(1);
    private final Map<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
    private final CompletableFuture<HelloReply> helloReply = new CompletableFuture<>();
    private volatile Runnable writabilityListener = () -> { };
    private volatile boolean closedOverLimit;

    private BridgeSession(ServerHandler handler, long id, String remoteAddress, BooleanSupplier writable, Sink sink,
                          ServerOptions bound, MemoryBudget.Account account) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.id = id;
        this.remoteAddress = Objects.requireNonNull(remoteAddress, "remoteAddress");
        this.writable = Objects.requireNonNull(writable, "writable");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.pushed = new OutboundQueue<>(bound.writeHighWaterBytes(), bound.writeLowWaterBytes(),
                bound.maxQueuedBytes(), BridgeSession::estimatedBytes, account, this::deliverPushed);
        this.pushed.setWritabilityListener(() -> writabilityListener.run());
    }

    /**
     * Opens a session on {@code handler} (it gets {@link ServerHandler#sessionOpened}).
     *
     * @param id unique among the transport's sessions
     * @param remoteAddress the caller's address, for the agent's logs
     * @param writable whether the caller's connection can take more pushed messages now; the
     *                 transport calls {@link #writableAgain()} when it turns true again
     * @param sink receives pushed messages and the session's end
     */
    public static BridgeSession open(ServerHandler handler, long id, String remoteAddress, BooleanSupplier writable,
                                     Sink sink) {
        return open(handler, id, remoteAddress, writable, sink, ServerOptions.builder().build());
    }

    /**
     * As {@link #open(ServerHandler, long, String, BooleanSupplier, Sink)}, with the server's bound
     * on pushed messages (its water marks and {@link ServerOptions#maxQueuedBytes()}).
     */
    public static BridgeSession open(ServerHandler handler, long id, String remoteAddress, BooleanSupplier writable,
                                     Sink sink, ServerOptions bound) {
        return open(handler, id, remoteAddress, writable, sink, bound, null);
    }

    /**
     * As {@link #open(ServerHandler, long, String, BooleanSupplier, Sink, ServerOptions)}, the pushed
     * messages that wait drawing on {@code account} of the server's memory budget (null for none): a
     * message the budget refuses closes the session as one past the queue's limit does. The account
     * is this session's own; it is closed when the session closes.
     */
    public static BridgeSession open(ServerHandler handler, long id, String remoteAddress, BooleanSupplier writable,
                                     Sink sink, ServerOptions bound, MemoryBudget.Account account) {
        BridgeSession session = new BridgeSession(handler, id, remoteAddress, writable, sink, bound, account);
        handler.sessionOpened(session);
        return session;
    }

    /**
     * Sends the hello. The future completes with the agent's reply, accepted or refused; a refused
     * session is closed by the agent right after.
     */
    public CompletableFuture<HelloReply> hello(String clientName, String codec, String credentials) {
        deliver(new Hello(Hello.PROTOCOL_VERSION, codec, clientName, credentials));
        return helloReply;
    }

    /** Sends a call after the hello; the future completes with its result, a failure included. */
    public CompletableFuture<Result> call(Call call) {
        long requestId = nextRequestId.getAndIncrement();
        CompletableFuture<Result> answer = new CompletableFuture<>();
        pending.put(requestId, answer);
        if (!open.get()) {
            failPending();
            return answer;
        }
        deliver(new Request(requestId, call));
        return answer;
    }

    /**
     * The transport's connection can take more again: the pushed messages that waited go to the
     * sink, and the agent's writability listener runs once they are below the low-water mark.
     */
    public void writableAgain() {
        if (open.get()) {
            deliverPushed();
        }
    }

    /** Hands waiting pushed messages to the sink, in order, while the caller's connection takes them. */
    private void deliverPushed() {
        synchronized (delivering) {
            while (open.get() && writable.getAsBoolean()) {
                OutboundQueue.Batch<Message> batch = pushed.next();
                if (batch.isEmpty()) {
                    return;
                }
                batch.items().forEach(sink::pushed);
                sink.delivered();
                pushed.written(batch.bytes());
            }
        }
    }

    /**
     * What a pushed message counts for: about its encoded size, without encoding it. A reading counts
     * its value's bytes; everything else a small fixed size.
     */
    static int estimatedBytes(Message message) {
        if (message instanceof StreamData data) {
            Reading r = data.reading();
            int value = r.value() instanceof Value.Bytes b ? b.value().length
                    : r.value() instanceof Value.Text t ? t.value().length() : 8;
            return 48 + r.sensorId().length() + r.error().length() + value;
        }
        return 128;
    }

    private void deliver(Message message) {
        synchronized (this) {
            if (open.get()) {
                handler.messageReceived(this, message);
            }
        }
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void send(Message message) {
        if (!open.get()) {
            return;
        }
        if (message instanceof HelloReply reply) {
            helloReply.complete(reply);
        } else if (message instanceof Response response) {
            CompletableFuture<Result> answer = pending.remove(response.id());
            if (answer != null) {
                answer.complete(response.result());
            }
        } else if (pushed.offer(message) == OutboundQueue.Offer.OVER_LIMIT) {
            closedOverLimit = true;
            close();
        }
    }

    /**
     * Whether the agent closed this session because a pushed message would have passed the queue's
     * limit or the memory budget: its caller stopped taking them.
     */
    public boolean closedOverLimit() {
        return closedOverLimit;
    }

    @Override
    public boolean isWritable() {
        return open.get() && pushed.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener == null ? () -> { } : listener;
    }

    /** The estimated encoded size of the pushed messages waiting for the caller. */
    @Override
    public long queuedBytes() {
        return pushed.queuedBytes();
    }

    @Override
    public boolean isOpen() {
        return open.get();
    }

    /** Closed by the agent: a refused hello, the agent stopping, a policy that disconnects. */
    @Override
    public void close() {
        end(true);
    }

    /** Closed by the caller: its connection went away or it has no more to ask. */
    public void closeByCaller() {
        end(false);
    }

    private void end(boolean byAgent) {
        if (!open.compareAndSet(true, false)) {
            return;
        }
        pushed.discard();
        synchronized (this) {
            handler.sessionClosed(this, null);
        }
        failPending();
        sink.closed(byAgent);
    }

    private void failPending() {
        helloReply.completeExceptionally(new SessionClosedException());
        for (Long requestId : pending.keySet()) {
            CompletableFuture<Result> answer = pending.remove(requestId);
            if (answer != null) {
                answer.completeExceptionally(new SessionClosedException());
            }
        }
    }

    /** A call was cut short because its session closed before the agent answered. */
    public static final class SessionClosedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public SessionClosedException() {
            super("the session closed before the agent answered");
        }
    }
}
