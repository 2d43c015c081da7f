package org.salgate.transport.tck;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/** Samples an agent's resident memory every 20 ms until closed; the peak is what an attack cost it. */
public final class PeakRss implements AutoCloseable {

    private static final long PERIOD_MILLIS = 20;

    private final AtomicLong peak = new AtomicLong();
    private volatile boolean running = true;
    private final Thread thread;

    public PeakRss(AgentProcess agent) {
        thread = new Thread(() -> {
            while (running) {
                try {
                    peak.accumulateAndGet(agent.residentBytes(), Math::max);
                    Thread.sleep(PERIOD_MILLIS);
                } catch (IOException | InterruptedException e) {
                    return; // the agent is gone, or the test is over: the test sees which
                }
            }
        }, "agent-rss-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** The highest resident memory seen so far, in bytes. */
    public long peak() {
        return peak.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(1_000);
    }
}
