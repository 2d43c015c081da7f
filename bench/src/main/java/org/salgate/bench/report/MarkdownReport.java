package org.salgate.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.Panel;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.Security;
import org.salgate.bench.run.Stat;
import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.score.MethodRatio;
import org.salgate.bench.score.ScoreCard;
import org.salgate.bench.server.ServerProcess;

/** The human report of a run ({@code report.md}): setup, the paper's tables with this run's numbers, details. */
public final class MarkdownReport {

    public static final String FILE = "report.md";

    private MarkdownReport() {}

    public static String render(RunOutcome run, MachineInfo machine, List<ScoreCard> scores,
                                Map<Panel, Map<String, MethodRatio>> ratios, List<Ceiling.Row> ceiling,
                                List<String> chartFiles) {
        RunConfig c = run.config();
        ResultSet rs = run.results();
        StringBuilder s = new StringBuilder();
        s.append("# salgate bench: ").append(c.level() == Level.TRANSPORT ? "transport level" : "agent level")
                .append("\n\n");
        s.append("- Run: ").append(run.started()).append(" to ").append(run.finished()).append('\n');
        s.append("- Machine: ").append(machine.describe()).append('\n');
        s.append("- ").append(MachineInfo.SHARED_MACHINE).append('\n');
        s.append("- Server under test: its own JVM, flags `").append(String.join(" ", ServerProcess.JVM_FLAGS))
                .append("` for every transport, per-session outbound bound ")
                .append(org.salgate.bench.server.BenchProtocol.WRITE_HIGH_WATER_BYTES / 1024).append(" KB high / ")
                .append(org.salgate.bench.server.BenchProtocol.WRITE_LOW_WATER_BYTES / 1024)
                .append(" KB low water mark; warmed up for ").append(c.serverWarmup().toMillis())
                .append(" ms (streaming, then synchronous calls, 2 clients) before its first measured cell")
                .append(c.interleave() ? "; every server started at once, the repetitions taken in turns across"
                        + " them (repetition 1 of every transport, then repetition 2, ...).\n" : ".\n");
        s.append("- Clients: one raw `TransportClient` per client in the bench JVM (hello, request/response by id), ")
                .append("one thread per synchronous client.\n");
        s.append("- Server CPU and memory: sampled from outside every ").append(500).append(" ms from /proc/<pid>/stat ")
                .append("(utime+stime over wall time; 100 % = one core fully busy; USER_HZ ")
                .append(ProcStat.ticksPerSecond()).append(") and /proc/<pid>/status VmRSS.\n");
        s.append("- Baseline: **").append(c.scoredBaseline()).append("** = 100 %. Transports: ")
                .append(String.join(", ", c.transports())).append(". Client counts: ").append(c.clients())
                .append(". Security: ").append(c.security().stream().map(Security::id).toList())
                .append(". Repetitions: ").append(c.reps()).append(" (median shown, [min-max] spread)")
                .append(c.quick() ? ". **Quick profile: smoke-test durations, not for conclusions.**" : ".")
                .append('\n');
        s.append(String.format(Locale.ROOT, "- Per cell: RTT %d calls per client after %d warm-up calls%s; TP %d ms; "
                        + "streaming %d ms after %d ms settling; resources %d ms; agent cells %d ms.%n",
                c.rttCalls(), c.rttWarmupCalls(), c.ratePerClient() > 0 ? String.format(Locale.ROOT,
                        " at a fixed %.0f calls/s per client (open loop, latency from each call's intended start)",
                        c.ratePerClient()) : " back to back (closed loop)",
                c.tpDuration().toMillis(), c.streamDuration().toMillis(), c.streamSettle().toMillis(),
                c.resourceDuration().toMillis(), c.agentDuration().toMillis()));
        s.append("\n## Scores (the paper's weighting)\n\n");
        if (scores.isEmpty()) {
            s.append("No transport besides the baseline was measured, so there is nothing to score.\n");
        } else {
            s.append(c.level() == Level.TRANSPORT ? ScoreTables.transportLevel(scores, c.scoredBaseline())
                    : ScoreTables.agentLevel(scores, c.scoredBaseline()));
            s.append("\nScalability ratio: (metric at the most clients / at the fewest) of the transport over the ")
                    .append("same for the baseline, inverted for times and resources; n/a with a single client count.\n");
        }
        s.append("\n## Ratios per client count (Figure 2)\n\n");
        for (var e : ratios.entrySet()) {
            TreeSet<Integer> counts = new TreeSet<>();
            e.getValue().values().forEach(m -> counts.addAll(m.perClients().keySet()));
            s.append("**").append(e.getKey().id()).append(" ").append(e.getKey().title()).append("** (")
                    .append(e.getKey().metric()).append(")\n\n| transport |");
            counts.forEach(n -> s.append(" ").append(n).append(" |"));
            s.append(" mean | scalability |\n|---|");
            counts.forEach(n -> s.append("---:|"));
            s.append("---:|---:|\n");
            e.getValue().forEach((t, m) -> {
                s.append("| ").append(t).append(" |");
                counts.forEach(n -> s.append(" ").append(ScoreTables.pct(m.perClients().getOrDefault(n, Double.NaN)))
                        .append(" |"));
                s.append(" ").append(ScoreTables.pct(m.mean())).append(" | ").append(ScoreTables.pct(m.scalability()))
                        .append(" |\n");
            });
            s.append('\n');
        }
        for (String f : chartFiles) {
            s.append("![").append(f).append("](").append(f).append(")\n");
        }
        s.append(TlsCost.markdown(TlsCost.rows(rs, c.level())));
        if (c.interleave()) {
            s.append(PairedRatios.markdown(PairedRatios.rows(rs, c.scoredBaseline()), c.scoredBaseline()));
        }
        s.append("\n## Measurements (median [min-max])\n");
        for (Method m : Method.values()) {
            details(s, rs, c, m);
        }
        if (!ceiling.isEmpty()) {
            s.append("\n## Against the framework-free ceiling\n\nBlocking Java sockets, no codec, no framework, ")
                    .append("server in its own JVM with the same flags, measured in this run. 100 % = as fast as raw sockets.\n\n")
                    .append("| transport | method | type | clients | transport | ceiling | % of ceiling |\n")
                    .append("|---|---|---|---:|---:|---:|---:|\n");
            for (Ceiling.Row r : ceiling) {
                s.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %s %s | %s |%n", r.transport(),
                        r.method().id(), r.dataType(), r.clients(), fmt(r.transportValue()), fmt(r.ceilingValue()),
                        Ceiling.unit(r.metric()), ScoreTables.pct(r.percent())));
            }
        }
        List<String> errors = new ArrayList<>();
        for (CellResult r : rs.all()) {
            if (r.error() != null) {
                errors.add(r.key() + " rep " + r.rep() + ": " + r.error());
            }
        }
        if (!errors.isEmpty() || !run.notes().isEmpty()) {
            s.append("\n## Problems and notes\n\n");
            run.notes().forEach(n -> s.append("- ").append(n).append('\n'));
            errors.forEach(e -> s.append("- ").append(e).append('\n'));
        }
        return s.toString();
    }

    private static void details(StringBuilder s, ResultSet rs, RunConfig c, Method m) {
        List<CellKey> keys = rs.keys().stream().filter(k -> k.method() == m).toList();
        if (keys.isEmpty()) {
            return;
        }
        List<String> cols = switch (m) {
            case RTT -> List.of(Metrics.MEAN_US, Metrics.P50_US, Metrics.P90_US, Metrics.P99_US, Metrics.P999_US,
                    Metrics.MAX_US, Metrics.SERVICE_P99_US);
            case TP -> List.of(Metrics.CALLS_PER_S, Metrics.MEAN_US, Metrics.P99_US);
            case STREAM -> List.of(Metrics.MSGS_PER_S, Metrics.MB_PER_S, Metrics.LOST, Metrics.DUPLICATED,
                    Metrics.REORDERED);
            case RESOURCE_SYNC, AGENT_SYNC -> List.of(Metrics.CPU_PCT, Metrics.RSS_MB, Metrics.RSS_MAX_MB,
                    Metrics.CALLS_PER_S);
            case RESOURCE_ASYNC, AGENT_ASYNC -> List.of(Metrics.CPU_PCT, Metrics.RSS_MB, Metrics.RSS_MAX_MB,
                    Metrics.MSGS_PER_S, Metrics.MB_PER_S, Metrics.LOST);
        };
        List<String> shown = cols.stream().filter(col -> keys.stream().anyMatch(k -> rs.metrics(k).contains(col))).toList();
        s.append("\n### ").append(m.id()).append("\n\n| transport | type | clients |");
        shown.forEach(col -> s.append(" ").append(col).append(" |"));
        s.append("\n|---|---|---:|");
        shown.forEach(col -> s.append("---:|"));
        s.append('\n');
        for (CellKey k : keys) {
            s.append("| ").append(k.transport()).append(" | ").append(k.dataType()).append(" | ").append(k.clients())
                    .append(" |");
            for (String col : shown) {
                Stat st = rs.stat(k, col);
                s.append(" ").append(fmt(st.median()));
                if (st.n() > 1) {
                    s.append(" [").append(fmt(st.min())).append("-").append(fmt(st.max())).append("]");
                }
                s.append(" |");
            }
            s.append('\n');
        }
    }

    static String fmt(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        if (Math.abs(v) >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
