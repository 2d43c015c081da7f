package org.salgate.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.salgate.bench.sample.ResourceSample;
import org.salgate.bench.sample.ResourceSampler;
import org.salgate.bench.server.BenchTls;
import org.salgate.bench.server.ServerProcess;
import org.salgate.bench.workload.ClientGroup;
import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.RawSocketChannel;
import org.salgate.bench.workload.StreamOutcome;
import org.salgate.bench.workload.StreamSpec;
import org.salgate.bench.workload.SyncOutcome;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.bench.workload.Workloads;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/**
 * Runs a plan: for each transport, start its server in a child JVM, warm it up, run its cells
 * (clients in this JVM, the server sampled from outside), stop it. A cell that fails is recorded
 * with its error and the run goes on; a server that dies is restarted for the next cell.
 */
public final class BenchRunner {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

    private final RunConfig config;
    private final PrintStream console;
    private final ResultSet results = new ResultSet();
    private final List<SampleRow> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = new ArrayList<>();

    private BenchTls tls;

    public BenchRunner(RunConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    /** Runs every cell of the plan and returns what was measured. */
    public RunOutcome run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        Files.createDirectories(config.out());
        Plan plan = Plan.of(config);
        Progress progress = new Progress(plan, console);
        if (config.tls()) {
            tls = BenchTls.create(config.out());
            note(progress, (config.security().size() > 1
                    ? "TLS: every transport's cells run in plain text and again over TLS (named <transport>"
                            + Security.TLS_SUFFIX + "), each in a server of its own"
                    : "TLS: every cell but the socket ceiling runs over TLS (named <transport>"
                            + Security.TLS_SUFFIX + ")")
                    + "; the TLS servers serve a self-signed certificate made for this run ("
                    + config.out().resolve("tls-cert.pem") + "), which the clients pin; the socket ceiling stays plain");
        }
        progress.note(String.format(Locale.ROOT, "%s level: %d cells over %s, roughly %s; results in %s",
                config.level().name().toLowerCase(Locale.ROOT), plan.size(), plan.servers(),
                Progress.formatSeconds(plan.estimateSeconds()), config.out()));
        if (config.interleave()) {
            runInterleaved(plan, progress);
        } else {
            for (String server : plan.servers()) {
                Slot slot = open(server, plan.cells(server), progress);
                if (slot != null) {
                    try {
                        slot.run(plan.cells(server), progress);
                    } finally {
                        slot.close();
                    }
                }
            }
        }
        return new RunOutcome(config, results, samples, notes, started, Instant.now());
    }

    /**
     * Every server at once, warmed up in turn; then repetition 1 of every server's cells, then
     * repetition 2, and so on. The servers not being measured sit idle.
     */
    private void runInterleaved(Plan plan, Progress progress) throws InterruptedException {
        Map<String, Slot> slots = new LinkedHashMap<>();
        try {
            for (String server : plan.servers()) {
                Slot slot = open(server, plan.cells(server), progress);
                if (slot != null) {
                    slots.put(server, slot);
                }
            }
            for (int rep = 1; rep <= config.reps(); rep++) {
                int round = rep;
                for (Slot slot : slots.values()) {
                    slot.run(plan.cells(slot.name).stream().filter(c -> c.rep() == round).toList(), progress);
                }
            }
        } finally {
            slots.values().forEach(Slot::close);
        }
    }

    /**
     * A transport's server and how to connect to it, started and warmed up; null when the
     * transport is not installed or its server would not start, its cells then recorded as skipped.
     */
    private Slot open(String name, List<PlannedCell> cells, Progress progress) throws InterruptedException {
        TransportProvider provider = null;
        if (!name.equals(CellKey.RAW)) {
            try {
                provider = Transports.byName(Security.transportOf(name));
            } catch (IllegalArgumentException e) {
                skip(name, cells, progress, e.getMessage());
                return null;
            }
        }
        Slot slot = new Slot(name, provider);
        try {
            slot.start(progress);
            return slot;
        } catch (IOException e) {
            skip(name, cells, progress, "its server could not be started: " + e.getMessage());
            return null;
        }
    }

    /** One transport's server, restarted when it dies between cells. */
    private final class Slot {
        private final String name;
        private final TransportProvider provider;
        private ServerProcess server;
        private ClientGroup.ChannelFactory factory;
        private boolean failed;

        Slot(String name, TransportProvider provider) {
            this.name = name;
            this.provider = provider;
        }

        void start(Progress progress) throws IOException, InterruptedException {
            server = startServer(name, provider, progress);
            factory = factory(server, provider, Security.of(name) == Security.TLS);
        }

        /** Runs cells on this server, restarting it if it died; if it cannot be restarted, the cells are skipped. */
        void run(List<PlannedCell> cells, Progress progress) throws InterruptedException {
            for (int i = 0; i < cells.size(); i++) {
                if (!failed && !server.isAlive()) {
                    note(progress, "the " + name + " server died (see " + log(name) + "); restarting it");
                    server.close();
                    try {
                        start(progress);
                    } catch (IOException e) {
                        failed = true;
                        note(progress, "the " + name + " server could not be started again: " + e.getMessage());
                    }
                }
                if (failed) {
                    skip(name, cells.subList(i, cells.size()), progress, "its server could not be restarted");
                    return;
                }
                PlannedCell cell = cells.get(i);
                progress.starting(cell, config.reps());
                CellResult r = runCell(cell, server, factory);
                results.add(r);
                progress.finished(cell, summary(r));
            }
        }

        void close() {
            if (server != null) {
                server.close();
            }
        }
    }

    private void skip(String name, List<PlannedCell> cells, Progress progress, String why) {
        note(progress, "transport " + name + " skipped: " + why);
        for (PlannedCell c : cells) {
            results.add(new CellResult(c.key(), c.rep(), Map.of(), why));
            progress.finished(c, "skipped");
        }
    }

    private void note(Progress progress, String message) {
        notes.add(message);
        progress.note(message);
    }

    private Path log(String name) {
        return config.out().resolve("server-" + name + ".log");
    }

    private ServerProcess startServer(String name, TransportProvider provider, Progress progress)
            throws IOException, InterruptedException {
        String transport = Security.transportOf(name);
        boolean overTls = Security.of(name) == Security.TLS;
        List<String> args = name.equals(CellKey.RAW) ? List.of("raw")
                : config.level() == Level.AGENT ? List.of("agent", transport, Integer.toString(config.dummySensors()))
                : List.of("transport", transport);
        if (overTls) {
            args = new ArrayList<>(args);
            args.addAll(tls.serverArgs());
        }
        ServerProcess server = ServerProcess.start(args, log(name));
        progress.note("server " + server + " started; warming it up for " + config.serverWarmup().toMillis() + " ms");
        warmUp(server, factory(server, provider, overTls));
        return server;
    }

    /**
     * JIT warm-up of a fresh server, two clients: half the time streaming, then half synchronous
     * calls, so that the warm-up ends on the path the synchronous cells measure. (It does not
     * remove a slower first repetition: docs/performance.md.)
     */
    private void warmUp(ServerProcess server, ClientGroup.ChannelFactory factory) throws InterruptedException {
        if (config.serverWarmup().isZero()) {
            return;
        }
        Duration half = config.serverWarmup().dividedBy(2);
        Payload sync = config.level() == Level.AGENT ? Payload.sensorList() : Payload.string();
        StreamSpec stream = config.level() == Level.AGENT ? StreamSpec.dummySensors(config.dummySensors())
                : StreamSpec.kilobytes(20);
        try (ClientGroup g = ClientGroup.open(factory, 2)) {
            Workloads.stream(g, stream, Duration.ZERO, half);
            Workloads.sync(g, sync, Workloads.Pace.duration(0, half));
        } catch (IOException e) {
            notes.add("warm-up of " + server + " failed: " + e.getMessage());
        }
    }

    private ClientGroup.ChannelFactory factory(ServerProcess server, TransportProvider provider, boolean overTls) {
        if (provider == null) {
            return i -> new RawSocketChannel(server.port());
        }
        return i -> TransportChannel.connect(provider, server.port(), i, CLIENT_TIMEOUT,
                overTls ? tls.client() : null);
    }

    private CellResult runCell(PlannedCell cell, ServerProcess server, ClientGroup.ChannelFactory factory)
            throws InterruptedException {
        CellKey k = cell.key();
        Map<String, Double> m = new LinkedHashMap<>();
        String error = null;
        ResourceSampler sampler = k.method().samplesServer() ? new ResourceSampler(server.pid()) : null;
        Workloads.Window window = sampler == null ? Workloads.Window.NONE : samplingWindow(sampler);
        long t0 = System.nanoTime();
        try (ClientGroup g = ClientGroup.open(factory, k.clients())) {
            switch (k.method()) {
                case RTT -> {
                    Workloads.Pace pace = config.ratePerClient() > 0
                            ? Workloads.Pace.fixedRate(config.rttWarmupCalls(), config.rttCalls(), config.ratePerClient())
                            : Workloads.Pace.calls(config.rttWarmupCalls(), config.rttCalls());
                    error = putSync(m, Workloads.sync(g, syncPayload(k), pace));
                }
                case TP -> error = putSync(m, Workloads.sync(g, syncPayload(k),
                        Workloads.Pace.duration(config.rttWarmupCalls() / 4, config.tpDuration())));
                case RESOURCE_SYNC, AGENT_SYNC -> error = putSync(m, Workloads.sync(g, syncPayload(k),
                        Workloads.Pace.duration(config.rttWarmupCalls() / 4, k.method() == Method.AGENT_SYNC
                                ? config.agentDuration() : config.resourceDuration()), window));
                case STREAM -> error = putStream(m, Workloads.stream(g, streamSpec(k), config.streamSettle(),
                        config.streamDuration()));
                case RESOURCE_ASYNC, AGENT_ASYNC -> error = putStream(m, Workloads.stream(g, streamSpec(k),
                        config.streamSettle(), k.method() == Method.AGENT_ASYNC ? config.agentDuration()
                                : config.resourceDuration(), window));
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            // a broken transport fails its cell, not the run
            error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        } finally {
            if (sampler != null) {
                List<ResourceSample> s = sampler.stop();
                putSamples(m, s);
                s.forEach(x -> samples.add(new SampleRow(k, cell.rep(), x)));
                if (s.isEmpty() && error == null) {
                    error = "no resource sample was taken (the measured window is shorter than "
                            + ResourceSampler.DEFAULT_PERIOD_MILLIS + " ms?)";
                }
            }
        }
        m.put(Metrics.SECONDS, (System.nanoTime() - t0) / 1e9);
        return new CellResult(k, cell.rep(), m, error);
    }

    private static Workloads.Window samplingWindow(ResourceSampler sampler) {
        return new Workloads.Window() {
            @Override
            public void started() {
                try {
                    sampler.start();
                } catch (IOException e) {
                    throw new IllegalStateException("cannot sample the server: " + e.getMessage(), e);
                }
            }

            @Override
            public void ended() {
                sampler.stop();
            }
        };
    }

    private Payload syncPayload(CellKey k) {
        if (k.method() == Method.AGENT_SYNC) {
            return Payload.sensorList();
        }
        if (k.method() == Method.RESOURCE_SYNC) {
            return Payload.bytes(Integer.parseInt(k.dataType().replace(" B", "")));
        }
        return switch (k.dataType()) {
            case "Integer" -> Payload.integer();
            case "Object" -> Payload.object();
            case "String" -> Payload.string();
            default -> throw new IllegalArgumentException("unknown data type " + k.dataType());
        };
    }

    private StreamSpec streamSpec(CellKey k) {
        if (k.method() == Method.AGENT_ASYNC) {
            return StreamSpec.dummySensors(config.dummySensors());
        }
        return StreamSpec.kilobytes(Integer.parseInt(k.dataType().replace(" KB", "")));
    }

    private static String putSync(Map<String, Double> m, SyncOutcome o) {
        Histogram h = o.latencies();
        m.put(Metrics.CALLS, (double) o.calls());
        m.put(Metrics.ERRORS, (double) o.errors());
        m.put(Metrics.CALLS_PER_S, o.callsPerSecond());
        if (h.getTotalCount() > 0) {
            m.put(Metrics.MEAN_US, h.getMean() / 1000);
            m.put(Metrics.P50_US, h.getValueAtPercentile(50) / 1000.0);
            m.put(Metrics.P90_US, h.getValueAtPercentile(90) / 1000.0);
            m.put(Metrics.P99_US, h.getValueAtPercentile(99) / 1000.0);
            m.put(Metrics.P999_US, h.getValueAtPercentile(99.9) / 1000.0);
            m.put(Metrics.MAX_US, h.getMaxValue() / 1000.0);
            if (o.serviceTimes() != h) {
                m.put(Metrics.SERVICE_P99_US, o.serviceTimes().getValueAtPercentile(99) / 1000.0);
            }
        }
        return o.errors() > 0 ? o.errors() + " failed calls; first: " + o.firstError() : null;
    }

    private static String putStream(Map<String, Double> m, StreamOutcome o) {
        m.put(Metrics.MESSAGES, (double) o.messages());
        m.put(Metrics.MSGS_PER_S, o.messagesPerSecond());
        m.put(Metrics.MB_PER_S, o.megabytesPerSecond());
        m.put(Metrics.LOST, (double) o.lost());
        m.put(Metrics.DUPLICATED, (double) o.duplicated());
        m.put(Metrics.REORDERED, (double) o.reordered());
        m.put(Metrics.ERRORS, (double) o.errors());
        if (o.errors() > 0) {
            return o.errors() + " streams failed; first: " + o.firstError();
        }
        if (o.lost() + o.duplicated() + o.reordered() > 0) {
            return "sequence errors: " + o.lost() + " lost, " + o.duplicated() + " duplicated, " + o.reordered()
                    + " reordered";
        }
        return null;
    }

    private static void putSamples(Map<String, Double> m, List<ResourceSample> s) {
        m.put(Metrics.CPU_PCT, ResourceSampler.meanCpu(s));
        m.put(Metrics.RSS_MB, ResourceSampler.meanRss(s) / 1e6);
        m.put(Metrics.RSS_MAX_MB, ResourceSampler.maxRss(s) / 1e6);
        m.put(Metrics.SAMPLES, (double) s.size());
    }

    private static String summary(CellResult r) {
        StringBuilder s = new StringBuilder();
        for (String k : List.of(Metrics.MEAN_US, Metrics.P99_US, Metrics.CALLS_PER_S, Metrics.MSGS_PER_S,
                Metrics.MB_PER_S, Metrics.CPU_PCT, Metrics.RSS_MB)) {
            double v = r.get(k);
            if (!Double.isNaN(v)) {
                s.append(k).append('=').append(String.format(Locale.ROOT, "%.1f", v)).append("  ");
            }
        }
        if (r.error() != null) {
            s.append("ERROR: ").append(r.error());
        }
        return s.toString().trim();
    }
}
