package org.salgate.client;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.salgate.transport.ClientHandler;
import org.salgate.transport.TransportClient;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to an agent: the hello, requests matched to responses by id, and the pushed
 * frames dispatched to stream and event listeners. Everything the agent sends arrives through
 * {@link #messageReceived} on the transport's thread, in order.
 */
final class ClientConnection implements ClientHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    private final TransportClient transport;
    private final String address;
    private final String transportName;
    private final long requestTimeoutNanos;

    private final AtomicLong missedEvents = new AtomicLong();
    private final AtomicLong nextRequestId = new AtomicLong();
    private final ConcurrentMap<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, ActiveStream> streams = new ConcurrentHashMap<>();
    private final CompletableFuture<HelloReply> helloReply = new CompletableFuture<>();
    private final AtomicReference<ConnectionClosedException> closed = new AtomicReference<>();
    private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
    private final AtomicLong unknownStreamFrames = new AtomicLong();
    private final AtomicLong lateResponses = new AtomicLong();

    private final Object eventLock = new Object();
    private final List<EventSubscription> eventSubscriptions = new CopyOnWriteArrayList<>();
    /** Guarded by eventLock: the SubscribeEvents in force or on its way; null when not subscribed. */
    private CompletableFuture<Result> eventsSubscribed;

    ClientConnection(TransportClient transport, String address, String transportName, Duration requestTimeout) {
        this.transport = transport;
        this.address = address;
        this.transportName = transportName;
        this.requestTimeoutNanos = requestTimeout.isNegative() || requestTimeout.isZero() ? 0 : requestTimeout.toNanos();
    }

    String address() {
        return address;
    }

    /**
     * Connects and completes the hello.
     *
     * @return the agent's (accepted) reply
     * @throws HelloRefusedException when the agent refuses the hello
     * @throws IOException when the agent cannot be reached or does not answer the hello in time
     */
    HelloReply open(Hello hello, Duration connectTimeout) throws IOException {
        long deadline = System.nanoTime() + connectTimeout.toNanos();
        try {
            transport.connect(this);
        } catch (IOException | RuntimeException e) {
            transport.close();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            String why = describe(e);
            // Transports usually name the address already; only add what is missing.
            throw new IOException(why.contains(address) ? why
                    : "cannot connect to the agent at " + address + " over " + transportName + ": " + why, e);
        }
        HelloReply reply;
        try {
            transport.send(hello);
            reply = helloReply.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            close("no hello reply");
            // The transport connected, so something listens there: most likely an agent too busy to answer in time.
            throw new IOException("the agent at " + address + " accepted the connection but did not answer the hello"
                    + " within " + connectTimeout.toMillis() + " ms: it may be overloaded; give it longer with"
                    + " --timeout");
        } catch (ExecutionException e) {
            close("hello failed");
            throw new IOException("the agent at " + address + " closed the connection during the hello; check that it"
                    + " is a salgate agent with the " + transportName + " transport, and whether it runs with TLS"
                    + " (then connect with --tls, --tls-ca or --tls-pin)", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close("interrupted");
            throw new IOException("interrupted while connecting to the agent at " + address, e);
        } catch (IOException | RuntimeException e) {
            close("hello failed");
            throw new IOException("cannot send the hello to the agent at " + address + ": " + describe(e), e);
        }
        if (!reply.accepted()) {
            close("hello refused");
            throw new HelloRefusedException(address, reply.code(),
                    reply.error().isEmpty() ? "no reason given" : reply.error());
        }
        return reply;
    }

    boolean isOpen() {
        return closed.get() == null && transport.isOpen();
    }

    long unknownStreamFrames() {
        return unknownStreamFrames.get();
    }

    /** Requests sent and not yet answered, failed or timed out; for tests. */
    int pendingRequests() {
        return pending.size();
    }

    /**
     * Sends a call. The future completes with the agent's result, fails with {@link SalException}
     * for a {@link Result.Failure}, with a {@link TimeoutException} after the request timeout, or
     * with a {@link ConnectionClosedException}.
     */
    CompletableFuture<Result> request(Call call) {
        CompletableFuture<Result> future = new CompletableFuture<>();
        if (closed.get() != null) {
            future.completeExceptionally(closed.get());
            return future;
        }
        long id = nextRequestId.incrementAndGet();
        pending.put(id, future);
        // close() may have drained the map just before the put: fail the request here then.
        ConnectionClosedException closedBy = closed.get();
        if (closedBy != null) {
            if (pending.remove(id, future)) {
                future.completeExceptionally(closedBy);
            }
            return future;
        }
        if (requestTimeoutNanos > 0) {
            ScheduledFuture<?> timeout = RequestTimer.schedule(() -> {
                if (pending.remove(id, future)) {
                    future.completeExceptionally(new TimeoutException("the agent at " + address + " did not answer "
                            + call.getClass().getSimpleName() + " within "
                            + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos) + " ms"));
                }
            }, requestTimeoutNanos);
            future.whenComplete((r, e) -> timeout.cancel(false));
        }
        try {
            transport.send(new Request(id, call));
        } catch (IOException e) {
            if (pending.remove(id, future)) {
                future.completeExceptionally(new ConnectionClosedException(
                        "cannot send to the agent at " + address + ": " + describe(e), e));
            }
        } catch (RuntimeException e) {
            if (pending.remove(id, future)) {
                future.completeExceptionally(e);
            }
        }
        return future;
    }

    /** Registers a stream the agent set up, then starts it: no frame can arrive before its listener is known. */
    CompletableFuture<SensorStream> start(long streamId, SlowConsumerPolicy policy, boolean shared,
                                          StreamListener listener) {
        ActiveStream stream = new ActiveStream(streamId, policy, shared, listener, this);
        ActiveStream previous = streams.put(streamId, stream);
        if (previous != null) {
            LOG.warn("the agent at {} reused stream id {}; the older stream is ended", address, streamId);
            previous.end("replaced by a new stream with the same id");
        }
        return request(new Call.StartStream(streamId)).handle((result, error) -> {
            if (error != null || !(result instanceof Result.Ack)) {
                streams.remove(streamId, stream);
                stream.abandon();
                throw error != null ? asCompletion(error) : new CompletionException(unexpected("StartStream", result));
            }
            return stream;
        });
    }

    void unregister(ActiveStream stream) {
        streams.remove(stream.id(), stream);
    }

    /** Adds an event listener, subscribing on the agent when it is the first. */
    CompletableFuture<AutoCloseable> subscribe(Consumer<Event> listener) {
        EventSubscription subscription = new EventSubscription(listener);
        CompletableFuture<Result> subscribed;
        synchronized (eventLock) {
            eventSubscriptions.add(subscription); // before the request, so that no event is missed
            if (eventsSubscribed == null) {
                eventsSubscribed = request(new Call.SubscribeEvents());
            }
            subscribed = eventsSubscribed;
        }
        return subscribed.handle((result, error) -> {
            if (error == null && result instanceof Result.Ack) {
                return subscription;
            }
            synchronized (eventLock) {
                eventSubscriptions.remove(subscription);
                if (eventsSubscribed == subscribed) {
                    eventsSubscribed = null;
                }
            }
            throw error != null ? asCompletion(error) : new CompletionException(unexpected("SubscribeEvents", result));
        });
    }

    private void unsubscribe(EventSubscription subscription) {
        synchronized (eventLock) {
            if (!eventSubscriptions.remove(subscription) || !eventSubscriptions.isEmpty() || eventsSubscribed == null) {
                return;
            }
            eventsSubscribed = null;
            if (closed.get() != null) {
                return;
            }
            request(new Call.UnsubscribeEvents()).whenComplete((r, e) -> {
                if (e != null) {
                    LOG.debug("unsubscribing from the events of {} failed", address, e);
                }
            });
        }
    }

    @Override
    public void messageReceived(Message message) {
        if (message instanceof Response response) {
            completeRequest(response);
        } else if (message instanceof StreamData data) {
            ActiveStream stream = streams.get(data.streamId());
            if (stream != null) {
                stream.deliver(data.reading());
            } else if (unknownStreamFrames.getAndIncrement() == 0) {
                LOG.debug("dropping a frame of unknown stream {} from {}", data.streamId(), address);
            }
        } else if (message instanceof StreamEnded ended) {
            ActiveStream stream = streams.remove(ended.streamId());
            if (stream != null) {
                stream.end(ended.reason().isEmpty() ? "ended by the agent" : ended.reason(), ended.counts());
            }
        } else if (message instanceof EventNotice notice) {
            deliverEvent(notice);
        } else if (message instanceof HelloReply reply) {
            if (!helloReply.complete(reply)) {
                LOG.warn("ignoring a second hello reply from {}", address);
            }
        } else {
            LOG.warn("ignoring an unexpected {} from the agent at {}", message.getClass().getSimpleName(), address);
        }
    }

    /**
     * Hands an event to the listeners. Events this client missed because it was not reading reach
     * them as an {@link Event.Type#EVENTS_MISSED} event first, so that no loss goes unseen; they are
     * counted in {@link #missedEvents()} once the listeners have been told, so that a count seen
     * from any thread never runs ahead of what the listeners were handed.
     */
    private void deliverEvent(EventNotice notice) {
        Event event = notice.event();
        long missed = notice.missedBefore();
        if (missed > 0) {
            String why = Counts.of(missed, "event") + " not delivered because this client was not reading";
            LOG.info("the agent at {}: {}", address, why);
            if (event.type() != Event.Type.EVENTS_MISSED) {
                Event gap = new Event(Event.Type.EVENTS_MISSED, "", null, event.timestampMicros(), why);
                eventSubscriptions.forEach(s -> s.deliver(gap));
            }
        }
        eventSubscriptions.forEach(s -> s.deliver(event));
        if (missed > 0) {
            missedEvents.addAndGet(missed);
        }
    }

    /** Events the agent did not deliver to this client because it was not reading. */
    long missedEvents() {
        return missedEvents.get();
    }

    private void completeRequest(Response response) {
        CompletableFuture<Result> future = pending.remove(response.id());
        if (future == null) {
            lateResponses.incrementAndGet();
            LOG.debug("dropping the response to request {} from {}: it timed out or was never sent", response.id(), address);
            return;
        }
        if (response.result() instanceof Result.Failure failure) {
            future.completeExceptionally(new SalException(failure.code(), failure.message()));
        } else {
            future.complete(response.result());
        }
    }

    @Override
    public void closed(Throwable cause) {
        String message = "connection to agent at " + address + " closed";
        shutdown(new ConnectionClosedException(cause == null ? message : message + ": " + describe(cause), cause));
    }

    /** Closes the connection: pending requests fail, streams end. Idempotent. */
    void close(String why) {
        shutdown(new ConnectionClosedException("connection to agent at " + address + " closed (" + why + ")", null));
        transport.close();
    }

    private void shutdown(ConnectionClosedException reason) {
        if (!closed.compareAndSet(null, reason)) {
            return;
        }
        helloReply.completeExceptionally(reason);
        for (Long id : pending.keySet()) {
            CompletableFuture<Result> future = pending.remove(id);
            if (future != null) {
                future.completeExceptionally(reason);
            }
        }
        for (Long id : streams.keySet()) {
            ActiveStream stream = streams.remove(id);
            if (stream != null) {
                stream.end(reason.getMessage());
            }
        }
        synchronized (eventLock) {
            eventSubscriptions.clear();
            eventsSubscribed = null;
        }
        closedFuture.complete(null);
    }

    CompletableFuture<Void> closedFuture() {
        return closedFuture;
    }

    static CompletionException asCompletion(Throwable error) {
        return error instanceof CompletionException ce ? ce : new CompletionException(error);
    }

    static SalException unexpected(String call, Result result) {
        return new SalException(org.salgate.model.ErrorCode.PROTOCOL_ERROR, "the agent answered " + call + " with "
                + result.getClass().getSimpleName() + ", which does not fit");
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    /** One event listener; closing it unsubscribes. */
    private final class EventSubscription implements AutoCloseable {
        private final Consumer<Event> listener;

        EventSubscription(Consumer<Event> listener) {
            this.listener = listener;
        }

        void deliver(Event event) {
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("an event listener threw; it stays subscribed", e);
            }
        }

        @Override
        public void close() {
            unsubscribe(this);
        }
    }
}
