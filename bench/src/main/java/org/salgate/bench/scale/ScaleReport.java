package org.salgate.bench.scale;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.run.Stat;
import org.salgate.bench.sample.ResourceSample;
import org.salgate.bench.server.ServerProcess;

/**
 * Writes a {@code bench scale} run into its folder: {@code scale.md}, {@code scale.csv} (one row
 * per cell), {@code scale.json} (the run, the machine and every cell with its processes' totals)
 * and {@code samples.csv} (every sample of the agent).
 */
public final class ScaleReport {

    public static final String MARKDOWN = "scale.md";
    public static final String CSV = "scale.csv";
    public static final String JSON = "scale.json";
    public static final String SAMPLES = "samples.csv";
    static final String STREAM_HEADER = "transport,clients,streams,processes,max_sessions,connected,connect_failures,"
            + "streams_started,stream_failures,received,expected_by_clock,lost,duplicated,reordered,"
            + "agent_delivered,agent_skipped,agent_dropped,unaccounted,ended_by_agent,closed_by_agent,"
            + "agent_rss_before_bytes,agent_rss_median_bytes,agent_rss_peak_bytes,agent_threads_median,"
            + "agent_threads_peak,agent_cpu_pct,seconds,window_frames_encoded,window_delivered,window_cpu_ns,"
            + "encoded_per_delivered,cpu_us_per_delivered,clean";
    static final String IDLE_HEADER = "transport,sessions,processes,max_sessions,idle_timeout_ms,opened,"
            + "connect_failures,closed_by_agent,list_alone_p50_us,list_alone_p90_us,list_alone_min_us,"
            + "list_alone_max_us,list_with_p50_us,list_with_p90_us,list_with_min_us,list_with_max_us,ratio_p50,"
            + "agent_rss_before_bytes,agent_rss_with_bytes,bytes_per_session,live_heap_bytes_per_session,agent_threads_before,"
            + "agent_threads_with,held_seconds,clean";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScaleReport() {}

    /** Writes the files into {@code config.out()} and returns the Markdown file. */
    public static Path write(ScaleConfig config, ScaleRunner.Outcome outcome, MachineInfo machine) throws IOException {
        Files.createDirectories(config.out());
        writeCsv(config.out().resolve(CSV), outcome);
        writeSamples(config.out().resolve(SAMPLES), outcome);
        writeJson(config.out().resolve(JSON), config, outcome, machine);
        Path md = config.out().resolve(MARKDOWN);
        Files.writeString(md, ScaleMarkdown.render(config, outcome, machine), StandardCharsets.UTF_8);
        return md;
    }

    private static void writeCsv(Path file, ScaleRunner.Outcome outcome) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            if (!outcome.streamCells().isEmpty()) {
                w.write(STREAM_HEADER);
                w.newLine();
                for (StreamCell c : outcome.streamCells()) {
                    ClientTotals t = c.totals();
                    AgentWindow win = c.window();
                    w.write(join(c.transport(), c.clients(), c.shared() ? "shared" : "own", c.processes(),
                            c.maxSessions(), t.connected(),
                            t.connectFailures(), t.streamsStarted(), t.streamFailures(), t.received(),
                            t.expectedByClock(), t.lost(), t.duplicated(), t.reordered(), t.agentDelivered(),
                            t.agentSkipped(), t.agentDropped(), t.unaccounted(), t.endedByAgent(), t.closedByAgent(),
                            c.agentBefore() == null ? Double.NaN : c.agentBefore().rssBytes(), c.rss().median(),
                            c.rss().max(), c.threads().median(), c.threads().max(), c.cpuPercent(),
                            c.measuredSeconds(), win == null ? "" : win.framesEncoded(),
                            win == null ? "" : win.delivered(), win == null ? "" : win.cpuNanos(),
                            win == null ? Double.NaN : win.encodedPerDelivered(),
                            win == null ? Double.NaN : win.cpuMicrosPerDelivered(), c.clean()));
                    w.newLine();
                }
            }
            if (!outcome.idleCells().isEmpty()) {
                w.write(IDLE_HEADER);
                w.newLine();
                for (IdleCell c : outcome.idleCells()) {
                    ClientTotals t = c.totals();
                    Latency a = c.listBefore();
                    Latency b = c.listDuring();
                    w.write(join(c.transport(), c.sessions(), c.processes(), c.maxSessions(), c.idleTimeoutMillis(),
                            t.connected(), t.connectFailures(), t.closedByAgent(), a.p50Micros(), a.p90Micros(),
                            a.minMicros(), a.maxMicros(), b.p50Micros(), b.p90Micros(), b.minMicros(), b.maxMicros(),
                            c.listRatio(), c.rssBefore().median(), c.rssDuring().median(), c.bytesPerSession(),
                            c.liveHeapBytesPerSession(), c.threadsBefore().median(), c.threadsDuring().median(), c.holdMillis() / 1000.0,
                            c.clean()));
                    w.newLine();
                }
            }
        }
    }

    private static void writeSamples(Path file, ScaleRunner.Outcome outcome) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("transport,mode,clients,phase,elapsed_ms,cpu_pct,rss_bytes,threads");
            w.newLine();
            for (StreamCell c : outcome.streamCells()) {
                for (ResourceSample s : c.samples()) {
                    writeSample(w, c.transport(), c.shared() ? ScaleMode.FANOUT : ScaleMode.STREAM, c.clients(),
                            c.shared() ? "streaming-shared" : "streaming", s);
                }
            }
            for (IdleCell c : outcome.idleCells()) {
                for (ResourceSample s : c.before()) {
                    writeSample(w, c.transport(), ScaleMode.IDLE, c.sessions(), "alone", s);
                }
                for (ResourceSample s : c.during()) {
                    writeSample(w, c.transport(), ScaleMode.IDLE, c.sessions(), "with-sessions", s);
                }
            }
        }
    }

    private static void writeSample(BufferedWriter w, String transport, ScaleMode mode, int clients, String phase,
                                    ResourceSample s) throws IOException {
        w.write(join(transport, mode.id(), clients, phase, s.elapsedMillis(), s.cpuPercent(), s.rssBytes(),
                s.threads()));
        w.newLine();
    }

    private static void writeJson(Path file, ScaleConfig config, ScaleRunner.Outcome outcome, MachineInfo machine)
            throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("commandLine", config.commandLine());
        run.put("mode", config.mode().id());
        run.put("transports", config.transports());
        run.put("clientCounts", config.clientCounts());
        run.put("clientProcesses", config.clientProcesses() > 0 ? config.clientProcesses() : "auto");
        run.put("maxClientsPerProcess", ScaleConfig.MAX_CLIENTS_PER_PROCESS);
        run.put("spread", "client i in process i mod processes");
        run.put("durationMs", config.duration().toMillis());
        run.put("intervalMs", config.intervalMs());
        run.put("dummySensors", config.dummySensors());
        run.put("connectRatePerSecond", config.connectRate());
        run.put("warmupMs", config.warmup().toMillis());
        run.put("listCalls", config.listCalls());
        run.put("listWarmupCalls", config.listWarmupCalls());
        run.put("settleMs", config.settle().toMillis());
        run.put("tls", config.tls());
        run.put("agentJvmFlags", ServerProcess.JVM_FLAGS);
        run.put("clientJvmFlags", ClientProcess.JVM_FLAGS);
        root.put("run", run);
        Map<String, Object> m = new LinkedHashMap<>(machine.asMap());
        m.put("note", ScaleMarkdown.SHARED_MACHINE);
        root.put("machine", m);
        List<Object> cells = new ArrayList<>();
        for (StreamCell c : outcome.streamCells()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("transport", c.transport());
            x.put("clients", c.clients());
            x.put("streams", c.shared() ? "shared" : "own");
            x.put("processes", c.processes());
            x.put("maxSessions", c.maxSessions());
            x.put("connectPauseMs", c.connectPauseMillis());
            x.put("agentWindow", c.window());
            x.put("clientTotals", c.totals());
            x.put("unaccounted", c.totals().unaccounted());
            x.put("agentRssBeforeBytes", c.agentBefore() == null ? null : c.agentBefore().rssBytes());
            x.put("agentThreadsBefore", c.agentBefore() == null ? null : c.agentBefore().threads());
            x.put("agentRssBytes", stat(c.rss()));
            x.put("agentThreads", stat(c.threads()));
            x.put("agentCpuPercent", num(c.cpuPercent()));
            x.put("seconds", c.measuredSeconds());
            x.put("failures", c.failures());
            x.put("clean", c.clean());
            cells.add(x);
        }
        for (IdleCell c : outcome.idleCells()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("transport", c.transport());
            x.put("sessions", c.sessions());
            x.put("processes", c.processes());
            x.put("maxSessions", c.maxSessions());
            x.put("idleTimeoutMs", c.idleTimeoutMillis());
            x.put("connectPauseMs", c.connectPauseMillis());
            x.put("clientTotals", c.totals());
            x.put("listAlone", c.listBefore());
            x.put("listWithSessions", c.listDuring());
            x.put("ratioP50", num(c.listRatio()));
            x.put("agentRssAloneBytes", stat(c.rssBefore()));
            x.put("agentRssWithSessionsBytes", stat(c.rssDuring()));
            x.put("bytesPerSession", num(c.bytesPerSession()));
            x.put("liveHeapBeforeBytes", c.liveHeapBefore());
            x.put("liveHeapWithSessionsBytes", c.liveHeapDuring());
            x.put("liveHeapBytesPerSession", num(c.liveHeapBytesPerSession()));
            x.put("agentThreadsAlone", stat(c.threadsBefore()));
            x.put("agentThreadsWithSessions", stat(c.threadsDuring()));
            x.put("heldMs", c.holdMillis());
            x.put("failures", c.failures());
            x.put("clean", c.clean());
            cells.add(x);
        }
        root.put("cells", cells);
        MAPPER.writeValue(file.toFile(), root);
    }

    private static Map<String, Object> stat(Stat s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", num(s.median()));
        m.put("min", num(s.min()));
        m.put("peak", num(s.max()));
        m.put("samples", s.n());
        return m;
    }

    private static Double num(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String join(Object... values) {
        StringBuilder b = new StringBuilder();
        for (Object v : values) {
            if (b.length() > 0) {
                b.append(',');
            }
            if (v instanceof Double d) {
                b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "");
            } else {
                b.append(v);
            }
        }
        return b.toString();
    }
}
