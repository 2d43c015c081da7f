package org.salgate.bench.server;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import org.salgate.transport.Session;
import org.salgate.model.Reading;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/**
 * One stream of fixed-size byte payloads pushed to a session as fast as it takes them. Sends in
 * small batches on a shared executor while the session is writable, and parks on the session's
 * writability listener when it is not, so nothing queues beyond the transport's high-water mark.
 */
final class PushStream {

    /** Messages sent per turn before yielding the executor thread to other streams. */
    private static final int BATCH = 16;

    private final Session session;
    private final long id;
    private final byte[] payload;
    private final Executor executor;
    private final Object sendLock = new Object();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean running;
    private long sequence;

    PushStream(Session session, long id, int sizeBytes, Executor executor) {
        this.session = session;
        this.id = id;
        this.payload = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            payload[i] = (byte) i;
        }
        this.executor = executor;
    }

    long id() {
        return id;
    }

    void start() {
        running = true;
        schedule();
    }

    /** Stops the stream; once this returns, no more frames of it are sent. */
    void stop() {
        synchronized (sendLock) {
            running = false;
        }
    }

    /** Asks for a turn on the executor unless one is pending; called on start, after a batch, and when writable again. */
    void schedule() {
        if (running && scheduled.compareAndSet(false, true)) {
            executor.execute(this::pump);
        }
    }

    private void pump() {
        scheduled.set(false);
        boolean blocked = false;
        synchronized (sendLock) {
            for (int i = 0; i < BATCH && running; i++) {
                if (!session.isOpen()) {
                    running = false;
                    return;
                }
                if (!session.isWritable()) {
                    blocked = true;
                    break;
                }
                long now = System.currentTimeMillis() * 1000;
                session.send(new StreamData(id, Reading.ok(BenchProtocol.SENSOR, now, sequence++, new Value.Bytes(payload))));
            }
        }
        if (!running) {
            return;
        }
        // when blocked, the session's writability listener reschedules; re-check to close the race
        // between the isWritable() above and the listener being in place
        if (!blocked || session.isWritable()) {
            schedule();
        }
    }
}
