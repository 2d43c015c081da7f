package org.salgate.agent.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.sensorml.ChannelConfig;

/**
 * A device protocol for tests: its registers hold raw values by channel name; tests make it
 * unreachable, blackhole its reads, hold its calls, drop its connection or make it throw, and read
 * back what the agent asked of it (each read batch, each write, each connect) and whether two calls
 * ever overlapped.
 */
public final class FakeDevice implements DeviceProtocol {

    /** Raw values by channel name; a channel without one is refused by the device. */
    public final Map<String, Value> registers = new ConcurrentHashMap<>();
    /** The time the device stamps on a channel's value, in microseconds, by channel name; none when absent. */
    public final Map<String, Long> stamps = new ConcurrentHashMap<>();
    /** The channel names of each read call, in order. */
    public final List<List<String>> readCalls = new CopyOnWriteArrayList<>();
    /** Each write, as {@code channel=raw}. */
    public final List<String> writes = new CopyOnWriteArrayList<>();
    /** When each connect was tried, in nanoseconds. */
    public final List<Long> connectAttempts = new CopyOnWriteArrayList<>();
    public final AtomicInteger disconnects = new AtomicInteger();
    /** Read calls left that throw an IllegalStateException. */
    public final AtomicInteger failingReads = new AtomicInteger();
    /** Read calls left that throw an AssertionError. */
    public final AtomicInteger assertingReads = new AtomicInteger();
    /** Read calls left that find the connection dropped. */
    public final AtomicInteger droppedReads = new AtomicInteger();
    public volatile boolean reachable = true;
    /** Where the device pushes the channels whose attribute {@code pushed} is {@code true}. */
    public volatile org.salgate.plugin.spi.PushSink sink;
    /** Reads never return (until the device is disconnected). */
    public volatile boolean blackhole;
    /** Connects, reads and writes wait for this. */
    public volatile CountDownLatch gate = new CountDownLatch(0);
    /** Set when a call is waiting at the gate. */
    public volatile CountDownLatch atGate = new CountDownLatch(1);
    /** Time each read and write takes, in milliseconds. */
    public volatile long callMillis;
    /** Whether the device says it takes concurrent requests. */
    public volatile boolean concurrent;
    /** Set when a write began while a read was in flight. */
    public volatile boolean writeOverlapped;
    /** The channels the device lists when asked for them. */
    public volatile List<ChannelConfig> listed = List.of();
    /** How many times the device was asked for its channels. */
    public final AtomicInteger discoveries = new AtomicInteger();
    /** Values the device pushes while it lists its channels, by channel name (a subscription's first values). */
    public final Map<String, Value> pushedWhileListing = new ConcurrentHashMap<>();
    /** Discoveries left that throw an IllegalStateException. */
    public final AtomicInteger failingDiscoveries = new AtomicInteger();

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private volatile CountDownLatch unplug = new CountDownLatch(1);
    private volatile boolean closed;

    /** The most calls that ran at once. */
    public int maxConcurrentCalls() {
        return maxInFlight.get();
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public void connect() throws Exception {
        connectAttempts.add(System.nanoTime());
        waitAtGate();
        if (!reachable) {
            throw new IOException("connection refused");
        }
        unplug = new CountDownLatch(1);
    }

    @Override
    public void disconnect() {
        disconnects.incrementAndGet();
        unplug.countDown();
    }

    @Override
    public List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        enter();
        try {
            List<String> names = reads.stream().map(r -> r.channel().name()).toList();
            readCalls.add(names);
            waitAtGate();
            if (blackhole) {
                unplug.await();
                throw new SensorDisconnectedException("the connection was closed");
            }
            if (failingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("the device answered garbage");
            }
            if (assertingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new AssertionError("a driver's assertion");
            }
            if (droppedReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new SensorDisconnectedException("connection reset by peer");
            }
            List<ChannelValue> out = new ArrayList<>();
            for (String name : names) {
                Value v = registers.get(name);
                out.add(v == null ? ChannelValue.failed("illegal data address")
                        : new ChannelValue(v, stamps.getOrDefault(name, 0L), null));
            }
            return out;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public List<ChannelConfig> discover() {
        discoveries.incrementAndGet();
        if (failingDiscoveries.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("the device's directory is garbled");
        }
        pushedWhileListing.forEach((name, v) -> sink.push(name, ChannelValue.of(v)));
        return listed;
    }

    @Override
    public boolean pushes(ChannelConfig channel) {
        return "true".equals(channel.attributes().get("pushed"));
    }

    @Override
    public boolean concurrentRequests() {
        return concurrent;
    }

    @Override
    public void write(ChannelConfig channel, Value raw) throws Exception {
        enter();
        try {
            if (inFlight.get() > 1) {
                writeOverlapped = true;
            }
            waitAtGate();
            writes.add(channel.name() + "=" + raw);
            registers.put(channel.name(), raw);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void enter() throws InterruptedException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        if (callMillis > 0) {
            Thread.sleep(callMillis); // a device takes time to answer: overlapping calls would show
        }
    }

    private void waitAtGate() throws InterruptedException {
        CountDownLatch g = gate;
        if (g.getCount() > 0) {
            atGate.countDown();
            if (!g.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
