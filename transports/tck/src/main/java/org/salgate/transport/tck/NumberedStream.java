package org.salgate.transport.tck;

import org.salgate.transport.Session;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

/**
 * Pushes one numbered stream on a session the way a well-behaved producer does: while the session
 * is writable, then again each time the writability listener runs.
 */
public final class NumberedStream {

    private final long id;
    private final long count;
    private final int size;
    private final RecordedSession owner;
    private long next;
    private boolean ended;

    NumberedStream(long id, long count, int size, RecordedSession owner) {
        this.id = id;
        this.count = count;
        this.size = size;
        this.owner = owner;
    }

    public long id() {
        return id;
    }

    /** Frames pushed so far. */
    public synchronized long pushed() {
        return next;
    }

    /** Whether every frame and the end were pushed. */
    public synchronized boolean finished() {
        return ended;
    }

    /**
     * Pushes until the session is not writable, the stream is done, or {@code budget} frames were
     * pushed. Never blocks.
     *
     * @return whether it stopped on the budget, so there is more to push right away
     */
    synchronized boolean pump(int budget) {
        Session session = owner.session();
        int pushed = 0;
        while (next < count) {
            if (!session.isOpen()) {
                return false;
            }
            if (!session.isWritable()) {
                owner.sawUnwritable();
                return false;
            }
            if (pushed++ == budget) {
                return true;
            }
            session.send(new StreamData(id, TckStreams.reading(next, size)));
            next++;
            owner.frameSent();
        }
        if (!ended) {
            ended = true;
            session.send(new StreamEnded(id, TckStreams.COMPLETE));
        }
        return false;
    }
}
