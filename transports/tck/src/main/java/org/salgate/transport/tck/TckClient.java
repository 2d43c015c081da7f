package org.salgate.transport.tck;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.TransportClient;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

/**
 * A test client over a {@link TransportClient}: matches responses to requests, checks numbered
 * streams as they arrive, can hold its delivery thread to play a slow reader, and records the
 * close. With {@code recordAll} every message goes to {@link #received()} instead.
 */
public final class TckClient implements ClientHandler, AutoCloseable {

    private final String name;
    private final TransportClient transport;
    private final String codecName;
    private final boolean recordAll;
    private final AtomicLong requestIds = new AtomicLong();
    private final Map<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
    private final Map<Long, StreamCheck> streams = new ConcurrentHashMap<>();
    private final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<HelloReply> helloReply = new CompletableFuture<>();
    private final CompletableFuture<Throwable> closed = new CompletableFuture<>();
    private final AtomicInteger closedCalls = new AtomicInteger();
    private final AtomicInteger messagesAfterClose = new AtomicInteger();
    /** Messages added to {@link #received}. */
    private final AtomicInteger recorded = new AtomicInteger();
    private volatile CountDownLatch streamGate;
    private volatile boolean blocked;

    /**
     * @param name the client name sent in the hello, by which the server's session can be found
     * @param codecName the codec named in the hello: the one the transport was made with
     * @param recordAll whether to record every message instead of matching them
     */
    public TckClient(String name, TransportClient transport, String codecName, boolean recordAll) {
        this.name = name;
        this.transport = transport;
        this.codecName = codecName;
        this.recordAll = recordAll;
    }

    /** Connects the transport without sending anything. */
    public TckClient connectOnly() throws IOException {
        transport.connect(this);
        return this;
    }

    /** Connects and completes the hello. */
    public TckClient connect() throws IOException {
        return connect(Await.DEFAULT);
    }

    /** Connects and completes the hello, whose answer must come within {@code helloWithin}. */
    public TckClient connect(Duration helloWithin) throws IOException {
        connectOnly();
        transport.send(Hello.of(codecName, name));
        HelloReply reply = Await.result(name + " hello reply", helloWithin, helloReply);
        if (!reply.accepted()) {
            throw new AssertionError("hello refused: " + reply.error());
        }
        return this;
    }

    public String name() {
        return name;
    }

    public TransportClient transport() {
        return transport;
    }

    /** Sends a request; the future completes with the server's result. */
    public CompletableFuture<Result> request(Call call) throws IOException {
        long id = requestIds.incrementAndGet();
        CompletableFuture<Result> future = new CompletableFuture<>();
        pending.put(id, future);
        transport.send(new Request(id, call));
        return future;
    }

    /** Asks for a numbered stream and returns its check once the server answered. */
    public StreamCheck startStream(long count, int size) throws IOException {
        Result result = Await.result(name + " stream handle", request(TckStreams.request(count, size)));
        if (!(result instanceof Result.StreamHandle handle)) {
            throw new AssertionError("expected a stream handle, got " + result);
        }
        return stream(handle.streamId());
    }

    /** The check of a stream, created when first asked for or when its first frame arrives. */
    public StreamCheck stream(long streamId) {
        return streams.computeIfAbsent(streamId, StreamCheck::new);
    }

    /** Holds the delivery thread at the next stream frame until {@link #resumeStreams()}. */
    public void pauseStreams() {
        streamGate = new CountDownLatch(1);
    }

    public void resumeStreams() {
        CountDownLatch gate = streamGate;
        streamGate = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Whether the delivery thread is now held by {@link #pauseStreams()}. */
    public boolean isBlocked() {
        return blocked;
    }

    /** Messages recorded (all with {@code recordAll}, else those not matched to a request or stream). */
    public BlockingQueue<Message> received() {
        return received;
    }

    /** The next recorded message, failing after {@link Await#DEFAULT}. */
    public Message nextReceived() throws InterruptedException {
        Message m = received.poll(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
        if (m == null) {
            throw new AssertionError(name + " received nothing within " + Await.DEFAULT.toMillis() + " ms, after "
                    + recorded.get() + " recorded messages; " + (closed.isDone()
                    ? "the transport had reported the connection closed (cause: " + closed.getNow(null) + ")"
                    : "the connection was not reported closed"));
        }
        return m;
    }

    /** Completes with the cause (possibly null) when the transport reports the connection closed. */
    public CompletableFuture<Throwable> closed() {
        return closed;
    }

    /** How often {@link #closed(Throwable)} was called; the contract says once. */
    public int closedCalls() {
        return closedCalls.get();
    }

    /** Messages delivered after {@code closed}; the contract says none. */
    public int messagesAfterClose() {
        return messagesAfterClose.get();
    }

    @Override
    public void messageReceived(Message message) {
        if (closed.isDone()) {
            messagesAfterClose.incrementAndGet();
        }
        if (recordAll) {
            if (message instanceof HelloReply reply) {
                helloReply.complete(reply);
            }
            record(message);
            return;
        }
        if (message instanceof HelloReply reply) {
            helloReply.complete(reply);
        } else if (message instanceof Response response) {
            CompletableFuture<Result> future = pending.remove(response.id());
            if (future != null) {
                future.complete(response.result());
            } else {
                record(message);
            }
        } else if (message instanceof StreamData data) {
            holdWhilePaused();
            stream(data.streamId()).frame(data.reading().sequence(), TckStreams.problem(data.reading()));
        } else if (message instanceof StreamEnded end) {
            stream(end.streamId()).end(end.reason());
        } else {
            record(message);
        }
    }

    private void record(Message message) {
        received.add(message);
        recorded.incrementAndGet();
    }

    private void holdWhilePaused() {
        CountDownLatch gate = streamGate;
        if (gate == null) {
            return;
        }
        blocked = true;
        try {
            if (!gate.await(Await.DEFAULT.toMillis() * 3, TimeUnit.MILLISECONDS)) {
                streamGate = null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            blocked = false;
        }
    }

    @Override
    public void closed(Throwable cause) {
        closedCalls.incrementAndGet();
        // Fail the pending requests first: a test that saw `closed` complete may then check them.
        IOException gone = new IOException(name + " closed", cause);
        pending.values().forEach(f -> f.completeExceptionally(gone));
        closed.complete(cause);
    }

    @Override
    public void close() {
        resumeStreams();
        transport.close();
    }

    @Override
    public String toString() {
        return name;
    }
}
