package org.salgate.bench.scale;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.sample.ResourceSample;
import org.salgate.bench.sample.ResourceSampler;
import org.salgate.bench.server.BenchServerMain;
import org.salgate.bench.server.BenchTls;
import org.salgate.bench.server.ServerProcess;
import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.bench.workload.Workloads;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;

/**
 * Runs {@code bench scale}: per transport and client count, a fresh agent in its own JVM (as
 * {@code bench agent} starts it), warmed up, then the clients in {@link ClientProcess}es, and the
 * agent's memory and threads sampled from outside through {@code /proc}.
 */
public final class ScaleRunner {

    /** How long a client waits for an answer, in the processes and in the bench. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final ScaleConfig config;
    private final PrintStream log;
    /** The run's certificate when it is over TLS, else null. */
    private BenchTls tls;

    public ScaleRunner(ScaleConfig config, PrintStream log) {
        this.config = config;
        this.log = log;
    }

    /** What a run measured: the cells of its mode, in order, and notes on anything that stopped a cell. */
    public record Outcome(List<StreamCell> streamCells, List<IdleCell> idleCells) {

        /** Whether every cell was clean (see {@link StreamCell#clean()}, {@link IdleCell#clean()}). */
        public boolean clean() {
            return streamCells.stream().allMatch(StreamCell::clean) && idleCells.stream().allMatch(IdleCell::clean);
        }
    }

    public Outcome run() throws IOException, InterruptedException {
        Files.createDirectories(config.out());
        if (config.tls()) {
            tls = BenchTls.create(config.out());
        }
        List<StreamCell> streams = new ArrayList<>();
        List<IdleCell> idles = new ArrayList<>();
        for (String transport : config.transports()) {
            TransportProvider provider = Transports.byName(transport);
            for (int clients : config.clientCounts()) {
                if (config.mode() == ScaleMode.STREAM) {
                    StreamCell c = streamCell(provider, clients, false);
                    streams.add(c);
                    log.println("  " + ScaleMarkdown.oneLine(c));
                } else if (config.mode() == ScaleMode.FANOUT) {
                    for (boolean shared : new boolean[] {false, true}) {
                        StreamCell c = streamCell(provider, clients, shared);
                        streams.add(c);
                        log.println("  " + ScaleMarkdown.oneLine(c));
                    }
                } else {
                    IdleCell c = idleCell(provider, clients);
                    idles.add(c);
                    log.println("  " + ScaleMarkdown.oneLine(c));
                }
                log.flush();
            }
        }
        return new Outcome(streams, idles);
    }

    /**
     * A streaming cell. In stream mode client i streams DUMMY_(i mod dummy sensors) on a stream of its
     * own; in fan-out mode every client streams DUMMY_0, on its own stream or (shared) on the agent's
     * one shared stream.
     */
    private StreamCell streamCell(TransportProvider provider, int clients, boolean shared)
            throws IOException, InterruptedException {
        String t = config.label(provider.name());
        boolean fanout = config.mode() == ScaleMode.FANOUT;
        String cell = fanout ? (shared ? "fanout-shared-" : "fanout-own-") + clients : "stream-" + clients;
        int processes = config.processesFor(clients);
        int maxSessions = maxSessions(clients);
        long pause = config.connectPauseMillis(processes);
        List<String> failures = new ArrayList<>();
        ResourceSample before = null;
        List<ResourceSample> samples = List.of();
        double seconds = 0;
        AgentWindow window = null;
        Processes procs = null;
        log.printf(Locale.ROOT, "%s, %d streaming clients (%s) in %d processes: starting the agent%n", t, clients,
                fanout ? (shared ? "one shared stream of DUMMY_0" : "each its own stream of DUMMY_0")
                        : "streams of their own", processes);
        try (ServerProcess agent = ServerProcess.start(agentArgs(provider.name(), maxSessions, null),
                config.out().resolve("agent-" + t + "-" + cell + ".log"))) {
            warmUp(provider, agent.port());
            before = readOnce(agent.pid());
            procs = Processes.start(this, provider, agent.port(), shared ? ScaleMode.FANOUT : ScaleMode.STREAM,
                    clients, fanout ? 1 : config.dummySensors(), processes, pause, cell, failures);
            procs.awaitAll(ProcessReport.READY, startDeadline(processes));
            procs.sendAll("connect");
            procs.awaitAll(ProcessReport.CONNECTED, connectDeadline(clients, processes, pause), connectStall(pause));
            procs.sendAll("start");
            procs.awaitAll(ProcessReport.STARTED, phaseDeadline(clients, processes));
            ResourceSampler sampler = new ResourceSampler(agent.pid());
            sampler.start();
            long t0 = System.nanoTime();
            ProcStat cpu = new ProcStat(agent.pid());
            ServerProcess.StreamCounts counts0 = agent.streamCounts();
            ProcStat.Reading cpu0 = cpu.read();
            Thread.sleep(config.duration().toMillis());
            ServerProcess.StreamCounts counts1 = agent.streamCounts();
            ProcStat.Reading cpu1 = cpu.read();
            samples = sampler.stop();
            seconds = (System.nanoTime() - t0) / 1e9;
            window = new AgentWindow(counts1.framesEncoded() - counts0.framesEncoded(),
                    counts1.delivered() - counts0.delivered(), cpu1.cpuNanos() - cpu0.cpuNanos(),
                    cpu1.wallNanos() - cpu0.wallNanos());
            stopClients(procs, agent, phaseDeadline(clients, processes), failures);
        } catch (IOException e) {
            failures.add(e.getMessage());
        } finally {
            closeClients(procs);
        }
        return new StreamCell(t, clients, processes, maxSessions, pause, shared, before, samples, seconds, window,
                totals(procs), failures);
    }

    private IdleCell idleCell(TransportProvider provider, int sessions) throws IOException, InterruptedException {
        String t = config.label(provider.name());
        int processes = config.processesFor(sessions);
        int maxSessions = maxSessions(sessions);
        long idleTimeoutMillis = 0;
        long pause = config.connectPauseMillis(processes);
        List<String> failures = new ArrayList<>();
        List<ResourceSample> before = List.of();
        List<ResourceSample> during = List.of();
        Latency listBefore = Latency.of(new Histogram(3), 0, null);
        Latency listDuring = listBefore;
        long holdMillis = 0;
        long heapBefore = -1;
        long heapDuring = -1;
        Processes procs = null;
        log.printf(Locale.ROOT, "%s, %d idle sessions in %d processes: starting the agent%n", t, sessions, processes);
        try (ServerProcess agent = ServerProcess.start(agentArgs(provider.name(), maxSessions, idleTimeoutMillis),
                config.out().resolve("agent-" + t + "-idle-" + sessions + ".log"))) {
            warmUp(provider, agent.port());
            ResourceSampler sampler = new ResourceSampler(agent.pid());
            sampler.start();
            Thread.sleep(config.settle().toMillis());
            listBefore = freshClientList(provider, agent.port());
            before = atLeastOne(sampler.stop(), agent.pid());
            heapBefore = liveHeap(agent.pid(), failures);
            log.printf(Locale.ROOT, "  the agent alone: list p50 %.0f us; opening the idle sessions%n",
                    listBefore.p50Micros());
            procs = Processes.start(this, provider, agent.port(), ScaleMode.IDLE, sessions, config.dummySensors(),
                    processes, pause, "idle-" + sessions, failures);
            procs.awaitAll(ProcessReport.READY, startDeadline(processes));
            procs.sendAll("connect");
            procs.awaitAll(ProcessReport.CONNECTED, connectDeadline(sessions, processes, pause), connectStall(pause));
            long held = System.nanoTime();
            sampler = new ResourceSampler(agent.pid());
            sampler.start();
            Thread.sleep(config.settle().toMillis());
            listDuring = freshClientList(provider, agent.port());
            during = atLeastOne(sampler.stop(), agent.pid());
            heapDuring = liveHeap(agent.pid(), failures);
            holdMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - held);
            stopClients(procs, agent, phaseDeadline(sessions, processes), failures);
        } catch (IOException e) {
            failures.add(e.getMessage());
        } finally {
            closeClients(procs);
        }
        return new IdleCell(t, sessions, processes, maxSessions, idleTimeoutMillis, pause, before, during, listBefore,
                listDuring, holdMillis, heapBefore, heapDuring, totals(procs), failures);
    }

    /** The agent's live heap after a full collection, or -1 with the reason added to {@code failures}. */
    private static long liveHeap(long pid, List<String> failures) throws InterruptedException {
        try {
            return LiveHeap.bytes(pid);
        } catch (IOException e) {
            failures.add("the agent's live heap was not taken: " + e.getMessage());
            return -1;
        }
    }

    /** Orders the processes to stop, collects their results, and notes an agent that exited meanwhile. */
    private static void stopClients(Processes procs, ServerProcess agent, long deadlineNanos, List<String> failures)
            throws InterruptedException {
        procs.sendAll("stop");
        procs.awaitAll(ProcessReport.RESULT, deadlineNanos);
        if (!agent.isAlive()) {
            failures.add("the agent exited during the cell; see its log");
        }
    }

    private static void closeClients(Processes procs) {
        if (procs != null) {
            procs.close();
        }
    }

    /** The processes' last reports added up; none when they were never started. */
    private static ClientTotals totals(Processes procs) {
        return ClientTotals.of(procs == null ? List.of() : procs.reports());
    }

    /** The agent's {@code --max-sessions}: its default, or room for every client and the bench's own two. */
    static int maxSessions(int clients) {
        return Math.max(ServerOptions.Limits.DEFAULT_MAX_SESSIONS, clients + ScaleConfig.SPARE_SESSIONS);
    }

    private List<String> agentArgs(String transport, int maxSessions, Long idleTimeoutMillis) {
        List<String> args = new ArrayList<>(List.of("agent", transport, Integer.toString(config.dummySensors()),
                BenchServerMain.MAX_SESSIONS, Integer.toString(maxSessions)));
        if (tls != null) {
            args.addAll(tls.serverArgs());
        }
        if (idleTimeoutMillis != null) {
            args.add(BenchServerMain.IDLE_TIMEOUT_MS);
            args.add(Long.toString(idleTimeoutMillis));
        }
        return args;
    }

    /**
     * Starting the client processes, until each reports ready: two minutes, then 3 s per process,
     * 6 s over TLS. They start at once and share the cores, and each warms up before it reports
     * ({@link ConnectionWarmUp}, over TLS {@link TlsWarmUp} too). On 2 cores, 40 processes of
     * netty over TLS took 139 s to all report ready; with a flat two-minute deadline, 20 of them
     * had missed it (docs/bench/2026-11-27-scale/idle-tls-rate-500).
     */
    private long startDeadline(int processes) {
        long perProcess = config.tls() ? 6 : 3;
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(120 + perProcess * processes);
    }

    /**
     * Connecting, once every process is up: two minutes, then each process's share at its pace with
     * 100 ms per connect and hello, 500 ms over TLS (a handshake each: 2000 of them took this machine
     * 42 s, 8 processes connecting at once).
     */
    private long connectDeadline(int clients, int processes, long pauseMillis) {
        long perProcess = (clients + processes - 1) / processes;
        long perConnect = config.tls() ? 500 : 100;
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(120) + TimeUnit.MILLISECONDS.toNanos(perProcess
                * (pauseMillis + perConnect));
    }

    /**
     * How long a process that is still connecting may go without saying it is getting on, past
     * {@link #connectDeadline}: two of its pauses and two connect timeouts (a minute and more). The
     * deadline follows the pace the bench asked for; on a machine too slow for that pace (2 cores
     * running the agent and 40 client JVMs, for 10,000 gRPC sessions) the processes take longer,
     * which the report's slowest process shows, and only a process that stops getting on fails.
     */
    private static long connectStall(long pauseMillis) {
        return 2 * (TimeUnit.MILLISECONDS.toNanos(pauseMillis) + CALL_TIMEOUT.toNanos());
    }

    /** Starting or stopping the streams, or checking the sessions: a minute plus 100 ms per client of a process. */
    private static long phaseDeadline(int clients, int processes) {
        long perProcess = (clients + processes - 1) / processes;
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(60) + TimeUnit.MILLISECONDS.toNanos(100 * perProcess);
    }

    /** JIT warm-up of a fresh agent: one client's sensor lists, back to back, for {@code --warmup}. */
    private void warmUp(TransportProvider provider, int port) throws IOException, InterruptedException {
        if (config.warmup().isZero()) {
            return;
        }
        try (TransportChannel c = TransportChannel.connect(provider, port, 0, CALL_TIMEOUT, clientTls())) {
            long end = System.nanoTime() + config.warmup().toNanos();
            Payload list = Payload.sensorList();
            while (System.nanoTime() < end) {
                c.call(list);
            }
        } catch (IOException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("the warm-up's sensor list failed: " + e.getMessage(), e);
        }
    }

    /** A fresh client's sensor lists: {@code --list-warmup-calls} unmeasured, then {@code --list-calls} timed. */
    private Latency freshClientList(TransportProvider provider, int port) throws IOException {
        Histogram h = new Histogram(Workloads.HISTOGRAM_MAX_NANOS, 3);
        long errors = 0;
        String firstError = null;
        Payload list = Payload.sensorList();
        try (TransportChannel c = TransportChannel.connect(provider, port, 0, CALL_TIMEOUT, clientTls())) {
            for (int i = 0; i < config.listWarmupCalls() + config.listCalls(); i++) {
                long t0 = System.nanoTime();
                try {
                    c.call(list);
                    if (i >= config.listWarmupCalls()) {
                        h.recordValue(Math.max(1, Math.min(System.nanoTime() - t0, Workloads.HISTOGRAM_MAX_NANOS)));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted during the fresh client's calls");
                } catch (Exception e) {
                    errors++;
                    firstError = firstError != null ? firstError : e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            }
        }
        return Latency.of(h, errors, firstError);
    }

    private static ResourceSample readOnce(long pid) throws IOException {
        ProcStat.Reading r = new ProcStat(pid).read();
        return new ResourceSample(0, Double.NaN, r.rssBytes(), r.threads());
    }

    /** The sampler's samples, or one reading now when the phase was shorter than a sampling period. */
    private static List<ResourceSample> atLeastOne(List<ResourceSample> samples, long pid) throws IOException {
        return samples.isEmpty() ? List.of(readOnce(pid)) : samples;
    }

    void progress(String line) {
        log.println("  " + line);
        log.flush();
    }

    ScaleConfig config() {
        return config;
    }

    /** The run's certificate when it is over TLS, else null. */
    BenchTls tls() {
        return tls;
    }

    private TlsConfig clientTls() {
        return tls == null ? null : tls.client();
    }
}
