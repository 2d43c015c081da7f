package org.salgate.bench.sample;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples another process's CPU, resident memory and threads at a fixed period (the paper: twice a second)
 * on its own daemon thread, so that the numbers are the sampled process's alone.
 * Start with {@link #start()}, end with {@link #stop()}, which returns the samples.
 */
public final class ResourceSampler implements AutoCloseable {

    /** The paper's monitoring period: twice a second. */
    public static final long DEFAULT_PERIOD_MILLIS = 500;

    private final ProcStat proc;
    private final long periodMillis;
    private final List<ResourceSample> samples = new ArrayList<>();
    private ScheduledExecutorService timer;
    private ProcStat.Reading start;
    private ProcStat.Reading previous;
    private volatile IOException failure;

    public ResourceSampler(long pid, long periodMillis) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("the sampling period must be positive, got " + periodMillis);
        }
        this.proc = new ProcStat(pid);
        this.periodMillis = periodMillis;
    }

    public ResourceSampler(long pid) {
        this(pid, DEFAULT_PERIOD_MILLIS);
    }

    /**
     * Takes a first reading and starts sampling.
     *
     * @throws IOException if the process cannot be read (gone, or no /proc)
     */
    public synchronized void start() throws IOException {
        if (timer != null) {
            throw new IllegalStateException("the sampler is already running");
        }
        start = proc.read();
        previous = start;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "resource-sampler-" + proc.pid());
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        try {
            ProcStat.Reading now = proc.read();
            long wall = now.wallNanos() - previous.wallNanos();
            double cpu = wall > 0 ? 100.0 * (now.cpuNanos() - previous.cpuNanos()) / wall : 0;
            samples.add(new ResourceSample((now.wallNanos() - start.wallNanos()) / 1_000_000, cpu, now.rssBytes(),
                    now.threads()));
            previous = now;
        } catch (IOException e) {
            failure = e;
        }
    }

    /** The samples so far. */
    public synchronized List<ResourceSample> samples() {
        return List.copyOf(samples);
    }

    /** Stops sampling and returns every sample taken; a read failure (process gone) ends the samples early. */
    public List<ResourceSample> stop() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = timer;
            timer = null;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return samples();
    }

    /** The read failure that ended sampling early, if any. */
    public IOException failure() {
        return failure;
    }

    @Override
    public void close() {
        stop();
    }

    /** Mean CPU % over samples (100 % = one core). NaN when there are none. */
    public static double meanCpu(List<ResourceSample> samples) {
        return samples.stream().mapToDouble(ResourceSample::cpuPercent).average().orElse(Double.NaN);
    }

    /** Mean resident memory in bytes. NaN when there are no samples. */
    public static double meanRss(List<ResourceSample> samples) {
        return samples.stream().mapToLong(ResourceSample::rssBytes).average().orElse(Double.NaN);
    }

    /** Peak resident memory in bytes; 0 when there are no samples. */
    public static long maxRss(List<ResourceSample> samples) {
        return samples.stream().mapToLong(ResourceSample::rssBytes).max().orElse(0);
    }
}
