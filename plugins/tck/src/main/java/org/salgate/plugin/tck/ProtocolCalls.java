package org.salgate.plugin.tck;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls the agent made to one protocol of the plugin under test: each request (execute, read,
 * write, connect) as {@code "execute SENSOR COMMAND"}, {@code "read CHANNEL,CHANNEL"},
 * {@code "write CHANNEL"} or {@code "connect"}, and the most requests that ever ran at once.
 */
public final class ProtocolCalls {

    private final boolean device;
    private final boolean concurrentRequests;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private volatile boolean closed;

    ProtocolCalls(boolean device, boolean concurrentRequests) {
        this.device = device;
        this.concurrentRequests = concurrentRequests;
    }

    /** Whether the protocol said it takes requests concurrently ({@link org.salgate.plugin.spi.SensorProtocol#concurrentRequests()}). */
    public boolean concurrentRequests() {
        return concurrentRequests;
    }

    /** Whether the protocol's endpoint reaches a device (it has a target address). */
    public boolean device() {
        return device;
    }

    /** The requests so far, in the order they began. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** The most requests that ran on the protocol at once. */
    public int mostAtOnce() {
        return mostAtOnce.get();
    }

    /** Whether the agent closed the protocol. */
    public boolean closed() {
        return closed;
    }

    void closed(boolean closed) {
        this.closed = closed;
    }

    void begin(String call) {
        calls.add(call);
        mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    void end() {
        inFlight.decrementAndGet();
    }
}
