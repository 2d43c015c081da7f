package org.salgate.transport.tck;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Optional;
import org.salgate.transport.Session;
import org.salgate.wire.Message;

/** What the {@link TckServerHandler} saw of one session, and the streams it pushes on it. */
public final class RecordedSession {

    private final Session session;
    private final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<String> clientName = new CompletableFuture<>();
    private final CompletableFuture<Optional<Throwable>> closed = new CompletableFuture<>();
    private final AtomicInteger closedCalls = new AtomicInteger();
    private final List<NumberedStream> streams = new CopyOnWriteArrayList<>();
    private final AtomicLong framesSent = new AtomicLong();
    private final AtomicLong framesSentWhenFirstUnwritable = new AtomicLong(-1);
    private final AtomicInteger writableEvents = new AtomicInteger();
    private volatile boolean orderViolated;

    RecordedSession(Session session) {
        this.session = session;
    }

    public Session session() {
        return session;
    }

    /** Every message the server received on this session, in order. */
    public BlockingQueue<Message> received() {
        return received;
    }

    /** Completes with the client name of the session's hello. */
    public CompletableFuture<String> clientName() {
        return clientName;
    }

    /** Completes when the session closed, with the cause the transport gave, if any. */
    public CompletableFuture<Optional<Throwable>> closed() {
        return closed;
    }

    /** How often {@code sessionClosed} was called (must end at 1). */
    public int closedCalls() {
        return closedCalls.get();
    }

    /** Stream frames pushed on this session so far. */
    public long framesSent() {
        return framesSent.get();
    }

    /** Frames pushed before {@link Session#isWritable()} first returned false, or -1 if it never did. */
    public long framesSentWhenFirstUnwritable() {
        return framesSentWhenFirstUnwritable.get();
    }

    /** How often the writability listener ran. */
    public int writableEvents() {
        return writableEvents.get();
    }

    /** Whether the transport called the handler out of order (a message after close, or close twice). */
    public boolean orderViolated() {
        return orderViolated;
    }

    /** The numbered streams started on this session. */
    public List<NumberedStream> streams() {
        return streams;
    }

    void messageReceived(Message message) {
        if (closed.isDone()) {
            orderViolated = true;
        }
        received.add(message);
    }

    void helloReceived(String name) {
        clientName.complete(name);
    }

    void sessionClosed(Throwable cause) {
        if (closedCalls.incrementAndGet() > 1) {
            orderViolated = true;
        }
        closed.complete(Optional.ofNullable(cause));
    }

    void frameSent() {
        framesSent.incrementAndGet();
    }

    void sawUnwritable() {
        framesSentWhenFirstUnwritable.compareAndSet(-1, framesSent.get());
    }

    void writable() {
        writableEvents.incrementAndGet();
    }

    void addStream(NumberedStream stream) {
        streams.add(stream);
    }
}
