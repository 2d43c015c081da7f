package org.salgate.bench.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.run.Stat;
import org.salgate.bench.server.ServerProcess;

/** The Markdown report of a {@code bench scale} run ({@code scale.md}). */
final class ScaleMarkdown {

    /** Client processes, agent and bench share the machine, which the report must say. */
    static final String SHARED_MACHINE = "The agent (its own JVM), the client processes (JVMs of their own) and the"
            + " bench ran on this same machine over loopback (127.0.0.1), sharing its cores.";

    private ScaleMarkdown() {}

    static String render(ScaleConfig config, ScaleRunner.Outcome outcome, MachineInfo machine) {
        StringBuilder b = new StringBuilder();
        b.append("# bench scale: ").append(switch (config.mode()) {
            case STREAM -> "streaming clients";
            case FANOUT -> "fan-out, one shared stream against a stream per client";
            case IDLE -> "idle sessions";
        }).append("\n\n");
        b.append("Command: `").append(config.commandLine()).append("`\n\n");
        b.append("Machine: ").append(machine.describe()).append(". ").append(SHARED_MACHINE).append("\n\n");
        b.append("How it ran:\n");
        b.append("- The agent: the real agent (`bench agent`'s), ").append(config.dummySensors())
                .append(" dummy sensors plus the OS sensors, in its own JVM (`")
                .append(String.join(" ", ServerProcess.JVM_FLAGS)).append("`), a fresh one per cell, warmed up with ")
                .append(millis(config.warmup().toMillis())).append(" of back-to-back sensor lists from one client.\n");
        b.append("- The clients: in child JVMs of the bench (`").append(String.join(" ", ClientProcess.JVM_FLAGS))
                .append("`), ").append(config.clientProcesses() > 0 ? "--client-processes "
                        + config.clientProcesses() + " per cell (at most one per client)"
                        : "enough per cell that none runs more than " + ScaleConfig.MAX_CLIENTS_PER_PROCESS
                        + " clients").append(". Client i (from 0) runs in process i mod N, each its own connection"
                        + " through the transport's client. Once every process is up (each reports ready), the"
                        + " bench tells them to connect: no hello waits behind another JVM's start-up. A process"
                        + " connects its clients one after the other,"
                        + " each completing its hello, pausing between two (and process p p/N of a pause before its"
                        + " first), so that all processes together connect at most ").append(config.connectRate())
                .append(" clients/s, in turn.\n");
        b.append(config.tls()
                ? "- Every connection is TLS (names `<transport>+tls`): the agent serves a self-signed certificate for"
                        + " 127.0.0.1 made for the run (`tls-cert.pem` here), and every client, the bench's own too,"
                        + " pins its SHA-256 fingerprint.\n"
                : "- Plain TCP, no TLS (`--tls` runs the same over TLS).\n");
        b.append("- The agent's memory (VmRSS) and threads (Threads) are read from `/proc/<pid>/status` from outside,"
                + " every ").append(org.salgate.bench.sample.ResourceSampler.DEFAULT_PERIOD_MILLIS).append(" ms.\n");
        if (config.mode() != ScaleMode.IDLE) {
            streamSection(b, config, outcome.streamCells());
        } else {
            idleSection(b, config, outcome.idleCells());
        }
        failures(b, outcome);
        return b.toString();
    }

    private static void streamSection(StringBuilder b, ScaleConfig config, List<StreamCell> cells) {
        boolean fanout = config.mode() == ScaleMode.FANOUT;
        if (fanout) {
            b.append("- Each client count runs twice, each time on a fresh agent: first every client sets up and"
                    + " starts a stream of its own of the dummy sensor DUMMY_0 (`own`), then every client joins the"
                    + " agent's one shared stream of DUMMY_0 (`shared`: the agent reads each reading once and"
                    + " encodes it once for all). One reading every ").append(config.intervalMs()).append(" ms");
        } else {
            b.append("- Each client sets up and starts one stream of the dummy sensor DUMMY_(i mod ")
                    .append(config.dummySensors()).append("), one reading every ").append(config.intervalMs())
                    .append(" ms");
        }
        b.append("; once every process has started its streams they all run for ")
                .append(millis(config.duration().toMillis())).append(" (the agent is sampled then), then each is"
                        + " stopped. Every reading's sequence number is checked (no gap, no repeat, in order; from 0,"
                        + " or on a shared stream from the first one the client got), and the agent's own count of"
                        + " readings sent, from its answer to each stop, is set against what arrived.\n");
        b.append("- Over the same window the agent is asked for its own counters at both ends: stream frames it"
                + " encoded and readings it delivered. Its CPU time over the window is read from"
                + " `/proc/<pid>/stat` (clock ticks of 10 ms); per delivered reading it includes whatever else the"
                + " agent did meanwhile (its OS sensors, its timers), which dominates when few readings go out.\n");
        b.append("- The agent's session limits: `--max-sessions` as in the table (its default is 10000; raised only"
                + " where the clients need more); its idle timeout stays at its default, 0 (never), which a"
                + " streaming session would not meet anyway.\n\n");
        b.append("## Streaming clients\n\n");
        b.append("| transport | clients | streams | processes | --max-sessions | connected | connect failures"
                + " | streams started | stream failures"
                + " | readings received | expected by the clock | lost | duplicated | reordered | sent by the agent,"
                + " not received | ticks the agent skipped | agent RSS before (MB) | agent RSS median [peak] (MB)"
                + " | agent threads median [peak] | agent CPU % | streams ran (s) | frames encoded (window)"
                + " | readings delivered (window) | encoded per delivered | agent CPU µs per delivered reading |\n");
        b.append("|---|---:|---|").append("---:|".repeat(22)).append('\n');
        for (StreamCell c : cells) {
            ClientTotals t = c.totals();
            Stat rss = c.rss();
            Stat th = c.threads();
            b.append(String.format(Locale.ROOT,
                    "| %s | %d | %s | %d | %d | %d | %d | %d | %d | %d | %.0f | %d | %d | %d | %d | %d | %s | %s [%s]"
                            + " | %s [%s] | %s | %.1f | %s | %s | %s | %s |%n",
                    c.transport(), c.clients(), c.shared() ? "shared" : "own", c.processes(), c.maxSessions(), t.connected(), t.connectFailures(),
                    t.streamsStarted(), t.streamFailures(), t.received(), t.expectedByClock(), t.lost(), t.duplicated(),
                    t.reordered(), t.unaccounted(), t.agentSkipped(),
                    c.agentBefore() == null ? "-" : mb(c.agentBefore().rssBytes()), mb(rss.median()), mb(rss.max()),
                    whole(th.median()), whole(th.max()), oneDecimal(c.cpuPercent()), c.measuredSeconds(),
                    c.window() == null ? "-" : Long.toString(c.window().framesEncoded()),
                    c.window() == null ? "-" : Long.toString(c.window().delivered()),
                    c.window() == null ? "-" : threeDecimals(c.window().encodedPerDelivered()),
                    c.window() == null ? "-" : oneDecimal(c.window().cpuMicrosPerDelivered())));
        }
        b.append("\n");
        if (fanout) {
            fanoutSummary(b, cells);
        }
        b.append("Expected by the clock: the sum over the clients of 1 + (time between the start's and the stop's"
                + " answers) / interval, as the client processes' clocks saw it; readings received below it mean"
                + " the agent did not keep the interval (ticks it skipped because a connection was not taking"
                + " frames are counted apart, and carry no sequence number).");
        if (fanout) {
            b.append(" On a shared stream a client's first reading comes at the shared stream's next tick, up to one"
                    + " interval after its start, so a shared cell's figure is up to one reading per client too high.");
        }
        b.append("\n\n");
        List<String> dirty = new ArrayList<>();
        for (StreamCell c : cells) {
            if (!c.clean()) {
                dirty.add(c.transport() + " at " + c.clients() + " clients");
            }
        }
        b.append(dirty.isEmpty() ? "Every cell: every client connected and streamed; 0 readings lost, duplicated or"
                + " reordered, and the agent's count of readings sent equals the clients'.\n"
                : "Not clean: " + String.join(", ", dirty) + " (see the table and the last section).\n");
    }

    private static void idleSection(StringBuilder b, ScaleConfig config, List<IdleCell> cells) {
        b.append("- Each client completes its hello and then sends nothing. Before any opens, a fresh client (a new"
                + " connection from the bench) makes ").append(config.listWarmupCalls()).append(" sensor lists"
                + " unmeasured and ").append(config.listCalls()).append(" timed, back to back; the agent is sampled"
                + " for ").append(millis(config.settle().toMillis())).append(" before and during those. Once every"
                + " process has opened its sessions, after the same ").append(millis(config.settle().toMillis()))
                .append(", another fresh client does the same with the sessions held open. Then each process checks"
                        + " that every one of its sessions is still open.\n");
        b.append("- Memory per idle session: (median agent RSS with the sessions - median before) / sessions open."
                + " This is what the process took from the machine, not what the sessions cost: the agent's heap is"
                + " fixed (512 MB), so session objects placed in heap pages touched before (by the warm-up's"
                + " garbage, say) add no RSS, while pages touched for the first time add RSS whatever fills them;"
                + " and the kernel's socket buffers are not in it.\n");
        b.append("- Live heap per idle session: (the agent's live heap with the sessions - before) / sessions open,"
                + " each taken by `jcmd <pid> GC.class_histogram` (a full collection in the agent, then the bytes of"
                + " what survived) once the settle and the fresh client's calls are over. This is what the agent's"
                + " Java objects for a session hold; the kernel's socket buffers and any native memory are not in"
                + " it.\n");
        b.append("- The agent's session limits, passed for the bench: `--max-sessions` as in the table (the agent's"
                + " default 10000 is too few for 10,000 sessions and the fresh client, so it is raised to the"
                + " sessions + " + ScaleConfig.SPARE_SESSIONS + " where needed); `--idle-timeout-ms 0` (never, the"
                + " agent's default), so no session is closed for its silence however long it is held. The hello"
                + " timeout stays at its default (10 s): every session completes its hello at once.\n\n");
        b.append("## Idle sessions\n\n");
        b.append("| transport | sessions | processes | opened | connect failures | closed while held | --max-sessions"
                + " | list alone p50 [p90, min-max] (µs) | list with the sessions p50 [p90, min-max] (µs)"
                + " | with / alone (p50) | agent RSS before (MB) | agent RSS with the sessions (MB)"
                + " | RSS per idle session (bytes) | live heap per idle session (bytes) | agent threads before"
                + " | agent threads with the sessions | held (s) |\n");
        b.append("|---|").append("---:|".repeat(16)).append('\n');
        for (IdleCell c : cells) {
            ClientTotals t = c.totals();
            b.append(String.format(Locale.ROOT,
                    "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |%n",
                    c.transport(), c.sessions(), c.processes(), t.connected(), t.connectFailures(), t.closedByAgent(),
                    c.maxSessions(), latency(c.listBefore()), latency(c.listDuring()), twoDecimals(c.listRatio()),
                    mb(c.rssBefore().median()), mb(c.rssDuring().median()), whole(c.bytesPerSession()),
                    whole(c.liveHeapBytesPerSession()), whole(c.threadsBefore().median()), whole(c.threadsDuring().median()), c.holdMillis() / 1000.0));
        }
        b.append("\n");
        List<String> dirty = new ArrayList<>();
        for (IdleCell c : cells) {
            if (!c.clean()) {
                dirty.add(c.transport() + " at " + c.sessions() + " sessions");
            }
        }
        b.append(dirty.isEmpty() ? "Every cell: every session opened and stayed open; every list call succeeded.\n"
                : "Not clean: " + String.join(", ", dirty) + " (see the table and the last section).\n");
    }

    private static void failures(StringBuilder b, ScaleRunner.Outcome outcome) {
        List<String> lines = new ArrayList<>();
        for (StreamCell c : outcome.streamCells()) {
            lines.addAll(problems(c.transport() + ", " + c.clients() + " clients", c.totals(), c.failures()));
        }
        for (IdleCell c : outcome.idleCells()) {
            lines.addAll(problems(c.transport() + ", " + c.sessions() + " sessions", c.totals(), c.failures()));
            if (c.listBefore().errors() > 0 || c.listDuring().errors() > 0) {
                lines.add(c.transport() + ", " + c.sessions() + " sessions: failed list calls, "
                        + c.listBefore().errors() + " alone, " + c.listDuring().errors() + " with the sessions: "
                        + (c.listBefore().firstError() != null ? c.listBefore().firstError()
                        : c.listDuring().firstError()));
            }
        }
        b.append("\n## Failures\n\n");
        if (lines.isEmpty()) {
            b.append("None.\n");
        }
        for (String l : lines) {
            b.append("- ").append(l.replace("\n", " ")).append('\n');
        }
    }

    private static List<String> problems(String cell, ClientTotals t, List<String> failures) {
        List<String> out = new ArrayList<>();
        failures.forEach(f -> out.add(cell + ": " + f));
        if (t.firstConnectError() != null) {
            out.add(cell + ": " + t.connectFailures() + " clients could not connect; the first: "
                    + t.firstConnectError());
        }
        if (t.firstStreamError() != null) {
            out.add(cell + ": " + t.streamFailures() + " streams failed; the first: " + t.firstStreamError());
        }
        t.notes().forEach(n -> out.add(cell + ": " + n));
        return out;
    }

    /** One line for the console after each cell. */
    static String oneLine(StreamCell c) {
        ClientTotals t = c.totals();
        return String.format(Locale.ROOT, "%s %d clients (%s streams): %d connected (%d failed), %d readings, lost %d,"
                        + " dup %d, reordered %d, agent sent and not received %d; agent RSS median %s MB, threads %s;"
                        + " %s%s",
                c.transport(), c.clients(), c.shared() ? "shared" : "own", t.connected(), t.connectFailures(),
                t.received(), t.lost(), t.duplicated(), t.reordered(), t.unaccounted(), mb(c.rss().median()),
                whole(c.threads().median()), c.window() == null ? "no agent counters"
                        : String.format(Locale.ROOT, "%d frames encoded for %d readings delivered, %s µs agent CPU"
                                + " per reading", c.window().framesEncoded(), c.window().delivered(),
                                oneDecimal(c.window().cpuMicrosPerDelivered())),
                c.failures().isEmpty() ? "" : "; " + c.failures().size() + " failure(s)");
    }

    /** Per transport and client count: the shared stream's figures against the own streams'. */
    private static void fanoutSummary(StringBuilder b, List<StreamCell> cells) {
        b.append("Shared against own, same transport and client count (agent CPU per delivered reading, and frames"
                + " encoded per delivered reading):\n\n");
        for (StreamCell shared : cells) {
            if (!shared.shared() || shared.window() == null) {
                continue;
            }
            for (StreamCell own : cells) {
                if (!own.shared() && own.window() != null && own.transport().equals(shared.transport())
                        && own.clients() == shared.clients()) {
                    b.append(String.format(Locale.ROOT, "- %s, %d clients: %s µs shared against %s µs own (x%s);"
                                    + " %s frames encoded per delivered reading shared, %s own%n",
                            shared.transport(), shared.clients(),
                            oneDecimal(shared.window().cpuMicrosPerDelivered()),
                            oneDecimal(own.window().cpuMicrosPerDelivered()),
                            twoDecimals(shared.window().cpuMicrosPerDelivered()
                                    / own.window().cpuMicrosPerDelivered()),
                            threeDecimals(shared.window().encodedPerDelivered()),
                            threeDecimals(own.window().encodedPerDelivered())));
                }
            }
        }
        b.append("\n");
    }

    static String oneLine(IdleCell c) {
        ClientTotals t = c.totals();
        return String.format(Locale.ROOT, "%s %d sessions: %d opened (%d failed, %d closed while held); list p50"
                        + " %.0f us alone, %.0f us with them (x%s); RSS %s -> %s MB, %s bytes per session; live heap"
                        + " %s bytes per session; threads %s -> %s%s",
                c.transport(), c.sessions(), t.connected(), t.connectFailures(), t.closedByAgent(),
                c.listBefore().p50Micros(), c.listDuring().p50Micros(), twoDecimals(c.listRatio()),
                mb(c.rssBefore().median()), mb(c.rssDuring().median()), whole(c.bytesPerSession()),
                whole(c.liveHeapBytesPerSession()), whole(c.threadsBefore().median()), whole(c.threadsDuring().median()),
                c.failures().isEmpty() ? "" : "; " + c.failures().size() + " failure(s)");
    }

    private static String latency(Latency l) {
        if (l.calls() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f [%.0f, %.0f-%.0f]", l.p50Micros(), l.p90Micros(), l.minMicros(),
                l.maxMicros());
    }

    static String mb(double bytes) {
        return Double.isFinite(bytes) ? String.format(Locale.ROOT, "%.1f", bytes / 1e6) : "-";
    }

    static String whole(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.0f", v) : "-";
    }

    private static String oneDecimal(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "-";
    }

    private static String twoDecimals(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "-";
    }

    private static String threeDecimals(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "-";
    }

    private static String millis(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
