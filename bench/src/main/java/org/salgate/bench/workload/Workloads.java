package org.salgate.bench.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

/**
 * The measured workloads: every client of a group runs on its own thread, all start together
 * after their warm-up, and per-client histograms are merged at the end.
 */
public final class Workloads {

    /** Highest latency recorded: 1 ns .. 60 s, 3 significant digits. */
    public static final long HISTOGRAM_MAX_NANOS = 60_000_000_000L;
    /** A client that fails this many calls in a row stops (its connection is most likely gone). */
    private static final int MAX_CONSECUTIVE_ERRORS = 20;

    private Workloads() {}

    /** How a synchronous client paces its calls. */
    public record Pace(int warmupCalls, int calls, Duration duration, double ratePerClient) {
        /** {@code calls} calls per client after {@code warmupCalls}, back to back. */
        public static Pace calls(int warmupCalls, int calls) {
            return new Pace(warmupCalls, calls, null, 0);
        }

        /** As many calls as fit in {@code duration}, back to back (closed loop). */
        public static Pace duration(int warmupCalls, Duration duration) {
            return new Pace(warmupCalls, Integer.MAX_VALUE, duration, 0);
        }

        /** {@code calls} calls per client at a fixed rate (open loop), latency from the intended start. */
        public static Pace fixedRate(int warmupCalls, int calls, double ratePerClient) {
            if (ratePerClient <= 0) {
                throw new IllegalArgumentException("the rate must be positive, got " + ratePerClient);
            }
            return new Pace(warmupCalls, calls, null, ratePerClient);
        }
    }

    /** Told when the measured window of a workload starts and ends (after warm-up, before tear-down). */
    public interface Window {
        Window NONE = new Window() { };

        default void started() {}

        default void ended() {}
    }

    /** Runs a synchronous workload on every client of the group. */
    public static SyncOutcome sync(ClientGroup group, Payload payload, Pace pace) throws InterruptedException {
        return sync(group, payload, pace, Window.NONE);
    }

    /** Runs a synchronous workload on every client of the group, telling {@code window} when it measures. */
    public static SyncOutcome sync(ClientGroup group, Payload payload, Pace pace, Window window)
            throws InterruptedException {
        int n = group.size();
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "bench-client");
            t.setDaemon(true);
            return t;
        });
        CountDownLatch warmedUp = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long[] startEnd = new long[2];
        List<Future<Histogram[]>> results = new ArrayList<>();
        try {
            for (BenchChannel ch : group.channels()) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < pace.warmupCalls(); i++) {
                        tryCall(ch, payload, errors, firstError);
                    }
                    warmedUp.countDown();
                    go.await();
                    return runClient(ch, payload, pace, startEnd[0], errors, firstError);
                }));
            }
            warmedUp.await();
            window.started();
            startEnd[0] = System.nanoTime();
            go.countDown();
            Histogram all = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            Histogram service = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            for (Future<Histogram[]> f : results) {
                try {
                    Histogram[] h = f.get();
                    all.add(h[0]);
                    service.add(h[1]);
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, String.valueOf(e.getCause()));
                }
            }
            long elapsed = System.nanoTime() - startEnd[0];
            window.ended();
            return new SyncOutcome(all, service, all.getTotalCount(), errors.get(), elapsed, firstError.get());
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static Histogram[] runClient(BenchChannel ch, Payload payload, Pace pace, long start, AtomicLong errors,
                                         AtomicReference<String> firstError) {
        Histogram h = new Histogram(HISTOGRAM_MAX_NANOS, 3);
        Histogram service = pace.ratePerClient() > 0 ? new Histogram(HISTOGRAM_MAX_NANOS, 3) : h;
        long deadline = pace.duration() == null ? Long.MAX_VALUE : start + pace.duration().toNanos();
        long interval = pace.ratePerClient() > 0 ? (long) (1e9 / pace.ratePerClient()) : 0;
        int consecutiveErrors = 0;
        for (long i = 0; i < pace.calls(); i++) {
            long intended = start + i * interval;
            if (interval > 0) {
                long wait;
                while ((wait = intended - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            long t0 = System.nanoTime();
            if (t0 >= deadline) {
                break;
            }
            Boolean ok = tryCall(ch, payload, errors, firstError);
            if (ok == null) {
                break; // timed out: the server is stuck or gone, waiting again would only add the timeout
            }
            if (ok) {
                long t1 = System.nanoTime();
                record(h, t1 - (interval > 0 ? intended : t0));
                if (service != h) {
                    record(service, t1 - t0);
                }
                consecutiveErrors = 0;
            } else if (++consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
                break;
            }
        }
        return new Histogram[] {h, service};
    }

    /** Threads that set up, start and stop the streams of a group in parallel. */
    private static final int CONTROL_THREADS = 16;

    /** A phase (all set-ups, all starts, all stops) gets 30 s plus 30 ms per client, then the rest count as failed. */
    private static long deadline(ClientGroup group) {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(30) + TimeUnit.MILLISECONDS.toNanos(30L * group.size());
    }

    private static <T> T outcome(Future<T> f, List<String> failures, String what, long deadlineNanos)
            throws InterruptedException {
        try {
            return f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause.getMessage();
            failures.add(what + " failed: " + cause.getClass().getSimpleName()
                    + (message == null || message.isBlank() ? "" : ": " + message));
            return null;
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(true);
            failures.add(what + " timed out: the server did not answer in time");
            return null;
        }
    }

    private static void record(Histogram h, long nanos) {
        h.recordValue(Math.max(1, Math.min(nanos, HISTOGRAM_MAX_NANOS)));
    }

    /** True when the call succeeded, false when it failed, null when it timed out. */
    private static Boolean tryCall(BenchChannel ch, Payload payload, AtomicLong errors,
                                   AtomicReference<String> firstError) {
        try {
            ch.call(payload);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, "a call timed out");
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (Exception e) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, e.getClass().getSimpleName() + ": " + e.getMessage());
            return false;
        }
    }

    /**
     * Starts a stream on every client, lets it settle for {@code settle}, counts what arrives for
     * {@code duration}, then stops every stream and checks the sequence numbers.
     */
    public static StreamOutcome stream(ClientGroup group, StreamSpec spec, Duration settle, Duration duration)
            throws InterruptedException {
        return stream(group, spec, settle, duration, Window.NONE);
    }

    /** As {@link #stream(ClientGroup, StreamSpec, Duration, Duration)}, telling {@code window} when it measures. */
    public static StreamOutcome stream(ClientGroup group, StreamSpec spec, Duration settle, Duration duration,
                                       Window window) throws InterruptedException {
        List<StreamCounter> counters = new ArrayList<>();
        List<BenchChannel.Subscription> subs = new ArrayList<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        long elapsed;
        // set-ups, starts and stops run on a few threads at once: one by one, the last of
        // hundreds of clients would wait behind the data of all the streams already running
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(group.size(), CONTROL_THREADS), r -> {
            Thread t = new Thread(r, "bench-stream-control");
            t.setDaemon(true);
            return t;
        });
        try {
            List<BenchChannel.PreparedStream> prepared = new ArrayList<>();
            List<StreamCounter> preparedCounters = new ArrayList<>();
            List<Future<BenchChannel.PreparedStream>> setups = new ArrayList<>();
            List<StreamCounter> all = new ArrayList<>();
            for (BenchChannel ch : group.channels()) {
                StreamCounter c = new StreamCounter();
                all.add(c);
                setups.add(pool.submit(() -> ch.prepareStream(spec, c)));
            }
            for (int i = 0; i < setups.size(); i++) {
                BenchChannel.PreparedStream p = outcome(setups.get(i), failures, "set-up", deadline(group));
                if (p != null) {
                    prepared.add(p);
                    preparedCounters.add(all.get(i));
                }
            }
            long startDeadline = deadline(group);
            List<Future<BenchChannel.Subscription>> starts = new ArrayList<>();
            for (BenchChannel.PreparedStream p : prepared) {
                starts.add(pool.submit(p::start));
            }
            for (int i = 0; i < starts.size(); i++) {
                BenchChannel.Subscription s = outcome(starts.get(i), failures, "start", startDeadline);
                if (s != null) {
                    subs.add(s);
                    counters.add(preparedCounters.get(i));
                }
            }
            Thread.sleep(settle.toMillis());
            window.started();
            long t0 = System.nanoTime();
            counters.forEach(c -> c.measuring(true));
            Thread.sleep(duration.toMillis());
            counters.forEach(c -> c.measuring(false));
            elapsed = System.nanoTime() - t0;
            window.ended();
        } finally {
            List<Future<Object>> stops = new ArrayList<>();
            for (BenchChannel.Subscription s : subs) {
                stops.add(pool.submit(() -> {
                    s.stop();
                    return null;
                }));
            }
            long stopDeadline = deadline(group);
            for (Future<Object> f : stops) {
                outcome(f, failures, "stop", stopDeadline);
            }
            pool.shutdownNow();
        }
        long errors = failures.size();
        String firstError = failures.isEmpty() ? null : failures.get(0);
        long messages = 0, bytes = 0, lost = 0, dup = 0, reordered = 0;
        for (StreamCounter c : counters) {
            messages += c.messages();
            bytes += c.bytes();
            lost += c.sequence().lost();
            dup += c.sequence().duplicated();
            reordered += c.sequence().reordered();
        }
        return new StreamOutcome(messages, bytes, lost, dup, reordered, elapsed, errors, firstError);
    }
}
