package org.salgate.agent.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.salgate.wire.SharedMessage;
import org.salgate.wire.StreamData;

/**
 * A session that records what the agent sends. Like a transport it has a high-water mark: with a
 * capacity, it is unwritable once that many stream frames wait unread, until {@link #drain()}.
 * It counts frames sent while unwritable, which a well-behaved agent never does. Shared messages it
 * encodes with the default codec, as a transport's session does, before recording what they carry.
 */
public final class FakeSession implements Session {

    private static final AtomicInteger IDS = new AtomicInteger(1000);

    private final long id = IDS.incrementAndGet();
    private final ServerHandler handler;
    private final List<Message> sent = new ArrayList<>();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final int capacity;
    private int unread;
    private int sentWhileUnwritable;
    private volatile Runnable writabilityListener;
    private final ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());

    FakeSession(ServerHandler handler, int capacity) {
        this.handler = handler;
        this.capacity = capacity;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return "fake:" + id;
    }

    @Override
    public void send(Message message) {
        synchronized (this) {
            if (!open.get()) {
                return;
            }
            if (message instanceof StreamData) {
                if (unread >= capacity) {
                    sentWhileUnwritable++;
                }
                unread++;
            }
            sent.add(message);
            notifyAll();
        }
    }

    @Override
    public void send(SharedMessage message) {
        if (open.get()) {
            codec.encode(message);
        }
        send(message.message());
    }

    /** Bytes of the shared messages it encoded. */
    public long bytesSent() {
        return codec.bytesEncoded();
    }

    @Override
    public synchronized boolean isWritable() {
        return unread < capacity;
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    @Override
    public boolean isOpen() {
        return open.get();
    }

    @Override
    public void close() {
        if (open.compareAndSet(true, false)) {
            handler.sessionClosed(this, null);
        }
    }

    /** The client reads everything queued: the session turns writable and the listener runs. */
    public void drain() {
        boolean wasFull;
        synchronized (this) {
            wasFull = unread >= capacity;
            unread = 0;
        }
        Runnable l = writabilityListener;
        if (wasFull && l != null) {
            l.run();
        }
    }

    /** Frames sent while the session was unwritable. */
    public synchronized int sentWhileUnwritable() {
        return sentWhileUnwritable;
    }

    /** A copy of everything sent so far. */
    public synchronized List<Message> sent() {
        return new ArrayList<>(sent);
    }

    /** Sent messages matching {@code filter}. */
    @SuppressWarnings("unchecked")
    public synchronized <T extends Message> List<T> sent(Class<T> type, Predicate<T> filter) {
        List<T> out = new ArrayList<>();
        for (Message m : sent) {
            if (type.isInstance(m) && filter.test((T) m)) {
                out.add((T) m);
            }
        }
        return out;
    }

    /** Waits up to {@code millis} until some sent messages match; returns them all. */
    public synchronized <T extends Message> List<T> await(Class<T> type, Predicate<T> filter, int atLeast, long millis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (true) {
            List<T> found = sent(type, filter);
            if (found.size() >= atLeast) {
                return found;
            }
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new AssertionError("waited " + millis + " ms for " + atLeast + " " + type.getSimpleName()
                        + " messages, got " + found.size() + "; sent: " + tail());
            }
            wait(left);
        }
    }

    private String tail() {
        List<Message> last = sent.subList(Math.max(0, sent.size() - 5), sent.size());
        return sent.size() + " messages, last " + last;
    }
}
