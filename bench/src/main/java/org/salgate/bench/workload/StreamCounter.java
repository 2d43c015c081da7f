package org.salgate.bench.workload;

/**
 * What one client receives on one stream: every message's sequence number is checked, and while
 * {@link #measuring} is on, messages and payload bytes are counted. Fed on the client's delivery
 * thread; read by the runner after the stream stopped.
 */
public final class StreamCounter {

    private final SequenceChecker sequence = new SequenceChecker();
    private volatile boolean measuring;
    private volatile long messages;
    private volatile long bytes;

    /** One message arrived. */
    public void onMessage(long seq, int payloadBytes) {
        sequence.accept(seq);
        if (measuring) {
            messages++;
            bytes += payloadBytes;
        }
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
