package org.salgate.bench.workload;

import org.salgate.model.StreamCounts;

/**
 * What one client receives on one stream: every message's sequence number is checked, and while
 * {@link #measuring} is on, messages and payload bytes are counted. Fed on the client's delivery
 * thread; read by the runner after the stream stopped.
 */
public final class StreamCounter {

    private final SequenceChecker sequence;
    private volatile boolean measuring;
    private volatile long messages;
    private volatile long bytes;
    private volatile String endedByServer;
    private volatile StreamCounts serverCounts;

    /** A counter of a stream numbered from 0. */
    public StreamCounter() {
        this(false);
    }

    /** @param joinedLate whether the stream's numbers start where it was joined (a shared stream) rather than 0 */
    public StreamCounter(boolean joinedLate) {
        this.sequence = new SequenceChecker(joinedLate);
    }

    /** One message arrived. */
    public void onMessage(long seq, int payloadBytes) {
        sequence.accept(seq);
        if (measuring) {
            messages++;
            bytes += payloadBytes;
        }
    }

    /** The server ended the stream on its own, for {@code reason}. */
    public void endedByServer(String reason) {
        endedByServer = reason;
    }

    /** Why the server ended the stream on its own; null when it did not. */
    public String endedByServer() {
        return endedByServer;
    }

    /** The server's own counts of the stream, from its answer to the stop. */
    public void stopped(StreamCounts counts) {
        serverCounts = counts;
    }

    /** The server's counts from its answer to the stop; null until the stream was stopped. */
    public StreamCounts serverCounts() {
        return serverCounts;
    }

    public void measuring(boolean on) {
        measuring = on;
    }

    public long messages() {
        return messages;
    }

    public long bytes() {
        return bytes;
    }

    public SequenceChecker sequence() {
        return sequence;
    }
}
