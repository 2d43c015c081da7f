package org.salgate.agent.device;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.salgate.agent.core.Micros;
import org.salgate.model.Reading;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that talks to the device of a protocol with a device endpoint (one serial bus,
 * one TCP connection): its connects,
 * reads and writes run on it in arrival order, the reads waiting together made one
 * {@link SensorProtocol#read(List)} call.
 *
 * <p>Bounds: at most {@value #MAX_WAITING} requests, or twice the protocol's channels when that is
 * more (so that every channel of a device can wait for one batch), wait for the lane (more are refused at once with
 * an ERROR reading), and each caller gets its reading within the protocol's
 * {@value #REQUEST_TIMEOUT} (default {@value #DEFAULT_TIMEOUT_MS} ms), an ERROR reading past it,
 * while the device keeps its lane: a device that never answers delays only its own callers.
 *
 * <p>Lifecycle: the lane connects when it starts; requests wait behind that first connect. When a
 * connect fails or a call throws {@link SensorDisconnectedException}, the lane disconnects the
 * protocol, tells its listener (the sensors are reported disconnected), answers every request at once
 * with a DISCONNECTED reading saying why and when the next attempt is, and connects again after a backoff that
 * doubles from {@value #RECONNECT_MIN} to {@value #RECONNECT_MAX} (defaults 1 s and 60 s); the
 * listener hears when it is back. Each change of state is logged once, not each attempt.
 *
 * <p>A device whose protocol says it takes concurrent requests ({@link
 * SensorProtocol#concurrentRequests()}) has up to {@value #CONCURRENT_REQUESTS} (default
 * {@value #DEFAULT_CONCURRENT}) batches of reads in flight at once, each on a worker of its lane;
 * the lane still takes requests in arrival order, and a request that is not a read (a write), a
 * connect and a discovery each wait for the reads in flight and run alone, so that writes stay
 * ordered with polls.
 *
 * <p>Discovery: after each connect, and every {@value #DISCOVER_INTERVAL} when the protocol sets it,
 * the lane asks the protocol for the channels its device lists ({@link SensorProtocol#discover()})
 * in its turn, and tells the listener what was found.
 */
public final class DeviceLane implements AutoCloseable {

    /** Protocol parameter: how long a caller waits for the device, in milliseconds. */
    public static final String REQUEST_TIMEOUT = "request-timeout-ms";
    /** Protocol parameter: the first wait before connecting again, in milliseconds. */
    public static final String RECONNECT_MIN = "reconnect-min-ms";
    /** Protocol parameter: the longest wait before connecting again, in milliseconds. */
    public static final String RECONNECT_MAX = "reconnect-max-ms";
    /** Protocol parameter: how long a stream's read waits for the other streams' reads of its tick, in milliseconds. */
    public static final String GATHER = "stream-gather-ms";
    /** Protocol parameter: how often to ask the device for its channels again, in milliseconds; 0 for at connect only. */
    public static final String DISCOVER_INTERVAL = "discover-interval-ms";
    /** Protocol parameter: how many batches of reads may be in flight at once on a device that takes concurrent requests. */
    public static final String CONCURRENT_REQUESTS = "concurrent-requests";
    static final int DEFAULT_CONCURRENT = 4;
    static final long DEFAULT_GATHER_MS = 2;
    private static final long GATHER_LOOK_MICROS = 100;
    static final long DEFAULT_TIMEOUT_MS = 5_000;
    static final int MAX_WAITING = 64;
    private static final long JOIN_AT_CLOSE_MS = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(DeviceLane.class);

    /** Hears the device's connection come and go. */
    public interface Listener {
        /** The connection is lost (or was never made); {@code why} says why. */
        void disconnected(String why);

        /** The connection is back after being lost. */
        void reconnected();

        /**
         * The device listed these channels when asked ({@link SensorProtocol#discover()}), after a
         * connect or at the discovery interval. Nothing to do by default.
         */
        default void discovered(List<ChannelConfig> channels) {
        }
    }

    /** A request that is not a read of channels: it runs alone, in its turn. */
    @FunctionalInterface
    public interface Task {
        Reading run() throws Exception;
    }

    /** The lane's timing and bound, from the protocol's parameters and channels. */
    public record Settings(long requestTimeoutMs, long reconnectMinMs, long reconnectMaxMs, int maxWaiting,
                           long gatherMs, long discoverIntervalMs, int concurrentRequests) {
        public Settings {
            if (requestTimeoutMs <= 0 || reconnectMinMs <= 0 || reconnectMaxMs < reconnectMinMs || maxWaiting < 1
                    || gatherMs < 0 || gatherMs >= requestTimeoutMs || discoverIntervalMs < 0
                    || concurrentRequests < 1) {
                throw new IllegalArgumentException("the lane needs a positive request timeout, 0 < "
                        + RECONNECT_MIN + " <= " + RECONNECT_MAX + ", 0 <= " + GATHER + " < " + REQUEST_TIMEOUT
                        + ", 0 <= " + DISCOVER_INTERVAL + " and 0 < " + CONCURRENT_REQUESTS);
            }
        }

        /** Settings with the default bound of {@value #MAX_WAITING} waiting requests and gathering. */
        public Settings(long requestTimeoutMs, long reconnectMinMs, long reconnectMaxMs) {
            this(requestTimeoutMs, reconnectMinMs, reconnectMaxMs, MAX_WAITING, DEFAULT_GATHER_MS, 0,
                    DEFAULT_CONCURRENT);
        }

        /**
         * The settings a protocol's parameters give.
         *
         * @throws IllegalArgumentException naming the parameter that is not a positive whole number
         */
        public static Settings of(ProtocolConfig p) {
            return new Settings(millis(p, REQUEST_TIMEOUT, DEFAULT_TIMEOUT_MS, 1), millis(p, RECONNECT_MIN, 1_000, 1),
                    millis(p, RECONNECT_MAX, 60_000, 1), Math.max(MAX_WAITING, 2 * p.channels().size()),
                    millis(p, GATHER, DEFAULT_GATHER_MS, 0), millis(p, DISCOVER_INTERVAL, 0, 0),
                    (int) number(p, CONCURRENT_REQUESTS, DEFAULT_CONCURRENT, 1, 64, "number of batches"));
        }

        private static long millis(ProtocolConfig p, String name, long fallback, long least) {
            return number(p, name, fallback, least, Long.MAX_VALUE, "number of milliseconds");
        }

        private static long number(ProtocolConfig p, String name, long fallback, long least, long most, String what) {
            String v = p.parameter(name, null);
            if (v == null) {
                return fallback;
            }
            try {
                long n = Long.parseLong(v.strip());
                if (n >= least && n <= most) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("parameter " + name + " is a " + (least > 0 ? "positive" : "whole")
                    + " " + what + (most < Long.MAX_VALUE ? " up to " + most : "") + ", not '" + v + "'");
        }
    }

    private enum State { CONNECTING, CONNECTED, DISCONNECTED }

    private sealed interface Request permits Read, Call {
        CompletableFuture<Reading> result();
    }

    /** A read of a channel; {@code tick} when a stream's tick asked for it. */
    private record Read(String sensorId, ChannelConfig channel, boolean tick, CompletableFuture<Reading> result)
            implements Request {}

    private record Call(String sensorId, Task task, CompletableFuture<Reading> result) implements Request {}

    private final String device;
    private final SensorProtocol protocol;
    private final Settings settings;
    private final Listener listener;
    private final BlockingDeque<Request> waiting;
    private final Thread thread;
    /** The reads in flight on a device that takes concurrent requests; null for one request at a time. */
    private final Semaphore inFlight;
    private final ExecutorService workers;
    private final int concurrent;
    private volatile State state = State.CONNECTING;
    private final PushedValues pushed;
    private volatile boolean closed;
    private volatile String cause = "";
    private volatile long nextAttemptNanos;
    private long backoffMs;
    private long nextDiscoveryNanos;
    private String lastDiscoveryFailure;

    /**
     * @param protocolName the protocol's name, for the thread's name and messages
     * @param endpoint the device's endpoint as written, for messages
     */
    public DeviceLane(String protocolName, String endpoint, SensorProtocol protocol, Settings settings,
                      Listener listener) {
        this(protocolName, endpoint, protocol, settings, listener, null);
    }

    /**
     * @param protocolName the protocol's name, for the thread's name and messages
     * @param endpoint the device's endpoint as written, for messages
     * @param pushed the values the device pushes, served without asking it; null for none
     */
    public DeviceLane(String protocolName, String endpoint, SensorProtocol protocol, Settings settings,
                      Listener listener, PushedValues pushed) {
        this.pushed = pushed;
        this.device = "device " + protocolName + " (" + endpoint + ")";
        this.protocol = protocol;
        this.settings = settings;
        this.waiting = new LinkedBlockingDeque<>(settings.maxWaiting());
        this.listener = listener;
        this.thread = new Thread(this::run, "device-" + protocolName);
        this.thread.setDaemon(true);
        this.concurrent = takesConcurrentRequests(protocol) ? settings.concurrentRequests() : 1;
        if (concurrent > 1) {
            inFlight = new Semaphore(concurrent);
            int[] n = {0};
            workers = Executors.newFixedThreadPool(concurrent, r -> {
                Thread t = new Thread(r, "device-" + protocolName + "-" + (++n[0]));
                t.setDaemon(true);
                return t;
            });
        } else {
            inFlight = null;
            workers = null;
        }
    }

    private static boolean takesConcurrentRequests(SensorProtocol protocol) {
        try {
            return protocol.concurrentRequests();
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("a protocol failed to say whether its device takes concurrent requests; it gets one at a time",
                    e);
            return false;
        }
    }

    /** Starts the lane, which connects to the device first. */
    public void start() {
        thread.start();
    }

    /**
     * Reads a channel with the other reads waiting, within the request timeout; a channel the
     * device pushes is answered at once with its latest value (or why there is none now).
     */
    public CompletableFuture<Reading> read(String sensorId, ChannelConfig channel) {
        return read(sensorId, channel, false);
    }

    /**
     * Reads a channel as {@link #read(String, ChannelConfig)} does; {@code tick} when a stream's tick
     * asks: the lane then lets the read wait up to the protocol's {@value #GATHER} (default
     * {@value #DEFAULT_GATHER_MS} ms) for the reads of the other streams ticking at the same moment,
     * so that they make one batch (one Modbus request for contiguous registers) rather than a first
     * read alone and the rest behind it. A client's read never waits.
     */
    public CompletableFuture<Reading> read(String sensorId, ChannelConfig channel, boolean tick) {
        if (pushed != null && pushed.pushed(channel)) {
            Reading refused = refused(sensorId, Micros.now());
            return CompletableFuture.completedFuture(refused != null ? refused : pushed.latest(channel));
        }
        return submit(sensorId, result -> new Read(sensorId, channel, tick, result));
    }

    /** Runs {@code task} in its turn, within the request timeout. */
    public CompletableFuture<Reading> call(String sensorId, Task task) {
        return submit(sensorId, result -> new Call(sensorId, task, result));
    }

    /** A configured channel is served as {@code channel} from now on (with the unit its device gave). */
    public void learned(ChannelConfig channel) {
        if (pushed != null) {
            pushed.learned(channel);
        }
    }

    /** How many requests wait for the lane now. */
    public int waiting() {
        return waiting.size();
    }

    private CompletableFuture<Reading> submit(String sensorId,
                                              java.util.function.Function<CompletableFuture<Reading>, Request> make) {
        Reading refused = refused(sensorId, Micros.now());
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        CompletableFuture<Reading> result = new CompletableFuture<>();
        CompletableFuture<Reading> answer = result.orTimeout(settings.requestTimeoutMs(), TimeUnit.MILLISECONDS)
                .handle((reading, failure) -> reading != null ? reading : Reading.error(sensorId, Micros.now(), 0,
                        failure instanceof TimeoutException ? device + " did not answer within "
                                + settings.requestTimeoutMs() + " ms" : device + " failed: " + failure));
        if (!waiting.offerLast(make.apply(result))) {
            result.complete(Reading.error(sensorId, Micros.now(), 0, device + " has " + settings.maxWaiting()
                    + " requests waiting already; this one is refused, try again later"));
        } else if (closed) {
            failWaiting(); // closed meanwhile: nobody takes it any more
        }
        return answer;
    }

    /**
     * The reading a request gets at once without waiting for the device, or null when it waits: an
     * ERROR reading when the lane is closed, a DISCONNECTED one saying why and when the next attempt
     * is while the device is disconnected.
     */
    private Reading refused(String sensorId, long now) {
        if (closed) {
            return Reading.error(sensorId, now, 0, device + " is closed");
        }
        if (state == State.DISCONNECTED) {
            long next = Math.max(0, nextAttemptNanos - System.nanoTime());
            return Reading.disconnected(sensorId, now, 0, device + " is disconnected: " + cause + "; next attempt in "
                    + seconds(next) + " s");
        }
        return null;
    }

    private static String seconds(long nanos) {
        return String.valueOf(Math.round(nanos / 1e8) / 10.0);
    }

    private void run() {
        try {
            while (!closed) {
                if (state != State.CONNECTED) {
                    connect();
                    continue;
                }
                Request first = next();
                if (first == null) {
                    alone(this::discover);
                } else if (first instanceof Read read) {
                    List<Read> batch = new ArrayList<>();
                    batch.add(read);
                    if (read.tick()) {
                        gather(batch);
                    }
                    while (waiting.peekFirst() instanceof Read) {
                        batch.add((Read) waiting.pollFirst());
                    }
                    inTurn(() -> readBatch(batch));
                } else {
                    alone(() -> runCall((Call) first));
                }
            }
        } catch (InterruptedException e) {
            // closed
        } catch (RuntimeException | Error e) {
            LOG.error("{}: its lane failed and stops", device, e);
            closed = true;
        }
        failWaiting();
    }

    /**
     * Runs a batch of reads: on the lane's thread when the device takes one request at a time, else
     * on a worker once fewer than the bound are in flight.
     */
    private void inTurn(Runnable reads) throws InterruptedException {
        if (workers == null) {
            reads.run();
            return;
        }
        inFlight.acquire();
        try {
            workers.execute(() -> {
                try {
                    reads.run();
                } finally {
                    inFlight.release();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            inFlight.release(); // closed meanwhile: the waiting requests are failed by the close
        }
    }

    /** Runs work on the lane's thread once no reads are in flight. */
    private void alone(Runnable work) throws InterruptedException {
        if (workers == null) {
            work.run();
            return;
        }
        inFlight.acquire(concurrent);
        try {
            work.run();
        } finally {
            inFlight.release(concurrent);
        }
    }

    /** The next request, or null when the discovery interval is up first. */
    private Request next() throws InterruptedException {
        if (settings.discoverIntervalMs() == 0) {
            return waiting.takeFirst();
        }
        long left = nextDiscoveryNanos - System.nanoTime();
        return left <= 0 ? null : waiting.pollFirst(left, TimeUnit.NANOSECONDS);
    }

    /**
     * Asks the device for its channels and tells the listener; a failure is logged once (until
     * discovery works again) and the channels found before are kept, a lost connection handled as
     * any call's.
     */
    private void discover() {
        nextDiscoveryNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.discoverIntervalMs());
        List<ChannelConfig> found;
        if (pushed != null) {
            pushed.discovering();
        }
        try {
            found = protocol.discover();
        } catch (Exception | LinkageError | AssertionError e) {
            if (pushed != null) {
                pushed.discovered(null);
            }
            if (e instanceof SensorDisconnectedException) {
                lostInCall(e);
            } else if (!message(e).equals(lastDiscoveryFailure)) {
                lastDiscoveryFailure = message(e);
                LOG.warn("{} could not list its channels: {}; its channels found before are kept", device,
                        lastDiscoveryFailure);
            }
            return;
        }
        lastDiscoveryFailure = null;
        if (pushed != null) {
            pushed.discovered(found);
        }
        if (found == null) {
            return;
        }
        try {
            listener.discovered(List.copyOf(found));
        } catch (RuntimeException e) {
            LOG.error("{}: the channels it listed could not be served", device, e);
        }
    }

    /**
     * Adds to {@code batch} the reads that come within the gathering time of a stream's tick, until
     * a request that is not a read is first in line (it keeps its turn, after the batch). The lane
     * looks every {@value #GATHER_LOOK_MICROS} µs rather than taking the next request, so that a
     * request that is not a read stays where it is in the bounded line.
     */
    private void gather(List<Read> batch) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.gatherMs());
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            Request next = waiting.peekFirst();
            if (next instanceof Read && waiting.pollFirst() instanceof Read read) {
                batch.add(read);
            } else if (next != null) {
                return;
            } else {
                LockSupport.parkNanos(Math.min(left, TimeUnit.MICROSECONDS.toNanos(GATHER_LOOK_MICROS)));
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
    }

    /** Waits for the next attempt (answering requests at once meanwhile), then connects. */
    private void connect() throws InterruptedException {
        if (state == State.DISCONNECTED) {
            long left;
            while ((left = nextAttemptNanos - System.nanoTime()) > 0) {
                Request r = waiting.pollFirst(left, TimeUnit.NANOSECONDS);
                if (r != null) {
                    answerNow(r);
                }
            }
        }
        boolean wasLost = state == State.DISCONNECTED;
        Throwable failed = null;
        if (inFlight != null) {
            inFlight.acquire(concurrent);
        }
        try {
            protocol.connect();
        } catch (Exception | LinkageError | AssertionError e) {
            failed = e;
        } finally {
            if (inFlight != null) {
                inFlight.release(concurrent);
            }
        }
        if (failed != null) {
            lost(failed);
            return;
        }
        if (closed) {
            return;
        }
        state = State.CONNECTED;
        backoffMs = 0;
        if (wasLost) {
            LOG.info("{} is connected again", device);
            listener.reconnected();
        } else {
            LOG.info("{} is connected", device);
        }
        discover();
    }

    /**
     * A call found the connection lost: handled once, by the first of the reads in flight to find
     * it (the others' readings say it is disconnected).
     */
    private void lostInCall(Throwable e) {
        synchronized (this) {
            if (state != State.CONNECTED) {
                return;
            }
            lost(e);
        }
    }

    /** The connection is lost: disconnect, tell the listener the first time, and plan the next attempt. */
    private synchronized void lost(Throwable e) {
        try {
            protocol.disconnect();
        } catch (RuntimeException | LinkageError x) {
            LOG.debug("{} failed to disconnect", device, x);
        }
        backoffMs = backoffMs == 0 ? settings.reconnectMinMs() : Math.min(backoffMs * 2, settings.reconnectMaxMs());
        cause = message(e);
        nextAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMs);
        if (closed) {
            return;
        }
        boolean first = state != State.DISCONNECTED;
        state = State.DISCONNECTED;
        if (first) {
            LOG.warn("{} is disconnected: {}; connecting again every {} to {} ms", device, cause,
                    settings.reconnectMinMs(), settings.reconnectMaxMs());
            listener.disconnected(cause);
        } else {
            LOG.debug("{} is still disconnected: {}; next attempt in {} ms", device, cause, backoffMs);
        }
        Request r;
        while ((r = waiting.pollFirst()) != null) {
            answerNow(r);
        }
    }

    private void answerNow(Request r) {
        Reading refused = refused(sensorOf(r), Micros.now());
        r.result().complete(refused != null ? refused : Reading.disconnected(sensorOf(r), Micros.now(), 0, device
                + " is not connected"));
    }

    private static String sensorOf(Request r) {
        return r instanceof Read read ? read.sensorId() : ((Call) r).sensorId();
    }

    private void readBatch(List<Read> batch) {
        List<Read> live = batch.stream().filter(r -> !r.result().isDone()).toList();
        if (live.isEmpty()) {
            return; // every caller gave up waiting: the device is not asked for nothing
        }
        List<ChannelRead> reads = live.stream().map(r -> new ChannelRead(r.channel())).toList();
        long now = Micros.now();
        List<ChannelValue> values;
        try {
            values = protocol.read(reads);
        } catch (Exception | LinkageError | AssertionError e) {
            if (e instanceof SensorDisconnectedException) {
                lostInCall(e);
            }
            for (Read r : live) {
                r.result().complete(failure(r.sensorId(), e, now));
            }
            return;
        }
        if (values == null || values.size() != live.size()) {
            for (Read r : live) {
                r.result().complete(Reading.error(r.sensorId(), now, 0, device + " gave "
                        + (values == null ? "no list" : values.size() + " values") + " for " + live.size()
                        + " channels"));
            }
            return;
        }
        for (int i = 0; i < live.size(); i++) {
            Read r = live.get(i);
            ChannelValue v = values.get(i);
            r.result().complete(v == null ? Reading.error(r.sensorId(), now, 0, device + " gave no value")
                    : Channels.reading(r.sensorId(), r.channel(), v, now));
        }
    }

    private void runCall(Call c) {
        if (c.result().isDone()) {
            return;
        }
        long now = Micros.now();
        try {
            c.result().complete(c.task().run());
        } catch (Exception | LinkageError | AssertionError e) {
            if (e instanceof SensorDisconnectedException) {
                lostInCall(e);
            }
            c.result().complete(failure(c.sensorId(), e, now));
        }
    }

    private Reading failure(String sensorId, Throwable e, long now) {
        if (e instanceof SensorUnavailableException) {
            return Reading.unavailable(sensorId, now, 0, message(e));
        }
        if (e instanceof SensorDisconnectedException) {
            Reading refused = refused(sensorId, now);
            return refused != null ? refused : Reading.disconnected(sensorId, now, 0, device + " is disconnected: "
                    + message(e));
        }
        return Reading.error(sensorId, now, 0, device + " failed: " + message(e));
    }

    private void failWaiting() {
        Request r;
        while ((r = waiting.pollFirst()) != null) {
            r.result().complete(Reading.error(sensorOf(r), Micros.now(), 0, device + " is closed"));
        }
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    /**
     * Stops the lane: waiting requests get an ERROR reading, the protocol is disconnected (which
     * ends a call the device does not answer) and the lane's thread is let go within a second.
     * The caller closes the protocol afterwards.
     */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        if (workers != null) {
            workers.shutdownNow();
        }
        try {
            protocol.disconnect();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("{} failed to disconnect", device, e);
        }
        try {
            thread.join(JOIN_AT_CLOSE_MS);
            if (workers != null) {
                workers.awaitTermination(JOIN_AT_CLOSE_MS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("{} did not return from a call within {} ms of being closed; its lane is left behind", device,
                    JOIN_AT_CLOSE_MS);
        }
        failWaiting();
    }
}
