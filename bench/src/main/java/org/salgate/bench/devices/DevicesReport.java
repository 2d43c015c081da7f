package org.salgate.bench.devices;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.run.Stat;

/**
 * Writes a {@code bench devices} run into its folder: {@code devices.md} and {@code devices.csv}
 * (one line per cell, repetition and figure).
 */
public final class DevicesReport {

    public static final String MARKDOWN = "devices.md";
    public static final String CSV = "devices.csv";
    static final String CSV_HEADER = "cell,rep,metric,value";
    /** The agent's back-to-back reads over j2mod's own, aimed at. */
    static final double CEILING_TARGET = 0.90;

    private DevicesReport() {}

    /** Writes both files and returns the Markdown one. */
    public static Path write(DevicesResult r, MachineInfo machine, List<String> notes) throws IOException {
        Path dir = r.config().out();
        Files.createDirectories(dir);
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(CSV), StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER);
            w.newLine();
            for (DevicesResult.Measurement m : r.measurements()) {
                for (var e : m.metrics().entrySet()) {
                    w.write(m.cell() + "," + m.rep() + "," + e.getKey() + ","
                            + (Double.isNaN(e.getValue()) ? "" : Double.toString(e.getValue())));
                    w.newLine();
                }
            }
        }
        Path md = dir.resolve(MARKDOWN);
        Files.writeString(md, markdown(r, machine, notes), StandardCharsets.UTF_8);
        return md;
    }

    static String markdown(DevicesResult r, MachineInfo machine, List<String> notes) {
        DevicesConfig c = r.config();
        StringBuilder s = new StringBuilder("# salgate bench: the agent polling Modbus TCP devices\n\n");
        s.append("- Run: ").append(r.started()).append(" to ").append(r.finished()).append('\n');
        s.append("- Command: `").append(c.commandLine()).append("`\n");
        s.append("- Machine: ").append(machine.describe()).append('\n');
        s.append("- The agent (in the bench's JVM), the devices' server and the clients (in the bench's JVM too)"
                + " shared this machine's ").append(machine.cores()).append(" cores over loopback, with whatever"
                + " else ran on it.\n");
        for (String n : notes) {
            s.append("- ").append(n).append('\n');
        }
        s.append("- Devices: ").append(r.server()).append("; each device on its own port, holding registers from 0,"
                + " each holding its address.\n");
        s.append("- Agent: `Agent.builder()` in the bench's JVM (netty transport, default threads), the Modbus plugin"
                + " (j2mod), device `d` a protocol `dev<d>` (`tcp:127.0.0.1:PORT`, unit-id 1) whose channel `r<j>` is"
                + " holding register `j` (uint16), every device's `HOST:PORT` in the allowed devices (what"
                + " `--device-allow` gives). A fresh agent per cell group and repetition.\n");
        s.append(String.format(Locale.ROOT, "- Repetitions: %d; figures are the median over them, [min-max]; a ratio"
                + " is taken within each repetition first.%s%n", c.reps(),
                c.quick() ? " **Quick profile: smoke-test durations, not for conclusions.**" : ""));

        String poll = "poll 1x1";
        s.append("\n## One device, one register, back to back\n\n");
        s.append(String.format(Locale.ROOT, "One client reads `dev0.r0` through the agent, one call after the other,"
                + " for %d ms; j2mod's own `ModbusTCPMaster` reads register 0 of the same device in a tight loop for"
                + " as long (the ceiling: the device and the library with nothing between); the side that goes first"
                + " alternates between repetitions. Target: the agent at %.2f of the ceiling or more. Beside them, the"
                + " same client reads the agent's own dummy sensor `DUMMY_0` as long, over the same connection: the"
                + " agent's round trip without a device. In process: the same reads through an in-process session of"
                + " the agent (what its MQTT bridge and REST API use), the agent's dispatch and the device's lane"
                + " without a client, a connection or a codec.%n%n", c.pollDuration().toMillis(), CEILING_TARGET));
        s.append("| through the agent (reads/s) | j2mod alone (reads/s) | agent / j2mod | target met | agent read p50 (us)"
                + " | p99 (us) | dummy sensor through the agent (reads/s) | p50 (us) | device / dummy"
                + " | Modbus requests per read, agent / j2mod | errors | in process (reads/s) | in process / j2mod |\n"
                + "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Stat ratio = r.stat(poll, "ratio_to_ceiling");
        s.append("| ").append(fmt(r.stat(poll, "agent_reads_per_s"))).append(" | ")
                .append(fmt(r.stat(poll, "ceiling_reads_per_s"))).append(" | ").append(two(ratio)).append(" | ")
                .append(ratio.n() == 0 ? "n/a" : ratio.median() >= CEILING_TARGET ? "yes" : "**no**").append(" | ")
                .append(fmt(r.stat(poll, "agent_read_p50_us"))).append(" | ").append(fmt(r.stat(poll, "agent_read_p99_us")))
                .append(" | ").append(fmt(r.stat(poll, "dummy_reads_per_s"))).append(" | ")
                .append(fmt(r.stat(poll, "dummy_read_p50_us"))).append(" | ")
                .append(two(r.stat(poll, "device_over_dummy"))).append(" | ")
                .append(two(r.stat(poll, "server_requests_per_agent_read"))).append(" / ")
                .append(two(r.stat(poll, "server_requests_per_ceiling_read"))).append(" | ")
                .append(fmt(r.stat(poll, "agent_errors"))).append(" | ")
                .append(fmt(r.stat(poll, "in_process_reads_per_s"))).append(" | ")
                .append(two(r.stat(poll, "in_process_ratio_to_ceiling"))).append(" |\n");

        s.append("\n## One device, K registers in one poll\n\n");
        s.append(String.format(Locale.ROOT, "A poll sends the reads of `dev0.r0` to `dev0.r(K-1)` (contiguous holding"
                + " registers) together on one client connection and waits for every answer; %d polls after 3"
                + " unmeasured."
                + " The devices' server counts the Modbus requests: the driver coalesces the reads that reach it in one"
                + " call into one request of up to %d registers, and the agent's lane hands it every read waiting when"
                + " it takes the next. A client's read is never held back to wait for others, so the poll's first read,"
                + " finding the lane idle, goes alone and the other K-1 follow in one request: two requests per poll"
                + " is what this design gives (streams gather, next section).%n%n", c.polls(),
                DevicesConfig.MAX_REGISTERS_PER_REQUEST));
        s.append("| K registers | Modbus requests per poll | one request | OK readings per poll | errors per poll |"
                + " poll p50 (us) | p99 (us) | driver alone: requests per poll | driver alone: poll p50 (us) |\n"
                + "|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (int k : c.batchSizes()) {
            String cell = "batch 1x" + k;
            Stat requests = r.stat(cell, "requests_per_poll");
            s.append("| ").append(k).append(" | ").append(two(requests)).append(" | ")
                    .append(requests.n() == 0 ? "n/a" : requests.max() == 1.0 ? "yes" : "**no**").append(" | ")
                    .append(fmt(r.stat(cell, "readings_ok_per_poll"))).append(" | ")
                    .append(fmt(r.stat(cell, "errors_per_poll"))).append(" | ").append(fmt(r.stat(cell, "poll_p50_us")))
                    .append(" | ").append(fmt(r.stat(cell, "poll_p99_us"))).append(" | ")
                    .append(two(r.stat(cell, "driver_requests_per_poll"))).append(" | ")
                    .append(fmt(r.stat(cell, "driver_poll_p50_us"))).append(" |\n");
        }
        s.append("\nDriver alone: the same polls through the Modbus plugin opened by the bench through the plugin SPI"
                + " (as the agent opens it), one `read(List)` call of the K channels per poll, no agent.\n");
        s.append("\n## K registers of one device streamed\n\n");
        s.append(String.format(Locale.ROOT, "Registers 0 to K-1 of one device, each a stream of its own at %d ms on"
                + " one client connection (as a dashboard streams a meter's values). The streams of a device's channels"
                + " tick together on the clock's multiples of their interval and the device's lane gathers their reads"
                + " for a moment (`stream-gather-ms`, default 2 ms), so K contiguous registers should cost one Modbus"
                + " request per tick. Same warm-up and window as below.%n%n", c.intervalMs()));
        s.append("| K registers | Modbus requests per tick | one request | received / expected | error readings |"
                + " skipped (agent) | agent CPU % |\n|---:|---:|---|---:|---:|---:|---:|\n");
        for (int k : c.batchSizes()) {
            if (k < 2) {
                continue;
            }
            String cell = "stream 1x" + k;
            Stat perTick = r.stat(cell, "requests_per_tick");
            s.append("| ").append(k).append(" | ").append(two(perTick)).append(" | ")
                    .append(perTick.n() == 0 ? "n/a" : perTick.max() < 1.05 ? "yes" : "**no**").append(" | ")
                    .append(two(r.stat(cell, "received_over_expected"))).append(" | ")
                    .append(fmt(r.stat(cell, "error_readings"))).append(" | ")
                    .append(fmt(r.stat(cell, "agent_skipped"))).append(" | ")
                    .append(fmt(r.stat(cell, "agent_cpu_pct"))).append(" |\n");
        }
        s.append("\n## Many devices streamed\n\n");
        s.append(String.format(Locale.ROOT, "Every channel of M devices (%d registers each) streamed at %d ms, the"
                + " devices spread over up to %d client connections (device d on client d mod N); %d ms of warm-up,"
                + " then a window of %d ms. Expected: channels x 1000 / interval readings per second. Missed ticks:"
                + " the readings the window should have had and did not get (OK or error). Skipped (agent): the ticks"
                + " the agent itself skipped and counted in the window, from `Agent.streamTotals()` — a stream tick"
                + " whose previous read still waits for the device's lane (`ServedStream.deferredTick`,"
                + " `PendingRead`), or a client not taking frames; the streams' own counts at their end"
                + " (`StreamEnded`) are in the CSV as `streams_skipped_life`. Agent CPU: the CPU time of the agent's"
                + " threads (%s) over the window, 100 %% = one core; JVM CPU and RSS are the bench's whole JVM (agent,"
                + " clients%s).%n%n", c.registers(), c.intervalMs(), c.clients(), c.warmup().toMillis(),
                c.duration().toMillis(), String.join(", ", ThreadCpu.AGENT_THREADS.stream().map(p -> "`" + p + "*`")
                        .toList()), c.server().equals("jvm") ? " and the j2mod devices" : ""));
        boolean python = c.server().equals("pymodbus");
        s.append("| devices x registers | expected /s | received /s | received / expected | error readings |"
                + " missed ticks | skipped (agent) | Modbus requests /s | requests per reading | agent CPU % |"
                + " JVM CPU % |").append(python ? " server CPU % |" : "").append(" JVM RSS (MB) | heap used (MB) |\n");
        s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|").append(python ? "---:|" : "")
                .append("---:|---:|\n");
        for (int m : c.deviceCounts()) {
            String cell = "stream " + m + "x" + c.registers();
            s.append("| ").append(m).append(" x ").append(c.registers()).append(" | ")
                    .append(fmt(r.stat(cell, "expected_per_s"))).append(" | ").append(fmt(r.stat(cell, "received_per_s")))
                    .append(" | ").append(two(r.stat(cell, "received_over_expected"))).append(" | ")
                    .append(fmt(r.stat(cell, "error_readings"))).append(" | ").append(fmt(r.stat(cell, "missed_ticks")))
                    .append(" | ").append(fmt(r.stat(cell, "agent_skipped"))).append(" | ")
                    .append(fmt(r.stat(cell, "server_requests_per_s"))).append(" | ")
                    .append(two(r.stat(cell, "requests_per_reading"))).append(" | ")
                    .append(fmt(r.stat(cell, "agent_cpu_pct"))).append(" | ").append(fmt(r.stat(cell, "jvm_cpu_pct")))
                    .append(" | ");
            if (python) {
                s.append(fmt(r.stat(cell, "server_cpu_pct"))).append(" | ");
            }
            s.append(fmt(r.stat(cell, "jvm_rss_mb"))).append(" | ").append(fmt(r.stat(cell, "jvm_heap_used_mb")))
                    .append(" |\n");
        }

        String lat = "latency 1x1";
        s.append("\n## From a register change to a client seeing it\n\n");
        s.append(String.format(Locale.ROOT, "A client streams `dev0.r0` at %d ms; %d times per repetition a second j2mod"
                + " master writes a new value into register 0 (function 6) at a random moment and the time runs from"
                + " just before that write to the stream's reading carrying the value, on one clock. A poll every"
                + " interval sees a change after half an interval on average: p50 near %d ms and p99 near %d ms is"
                + " the polling itself.%n%n", c.intervalMs(), c.latencyChanges(), c.intervalMs() / 2,
                c.intervalMs() * 99 / 100));
        s.append("| changes | seen | missed | p50 (ms) | p99 (ms) | max (ms) |\n|---:|---:|---:|---:|---:|---:|\n");
        s.append("| ").append(fmt(r.stat(lat, "changes"))).append(" | ").append(fmt(r.stat(lat, "changes_seen")))
                .append(" | ").append(fmt(r.stat(lat, "changes_missed"))).append(" | ")
                .append(fmt(r.stat(lat, "latency_p50_ms"))).append(" | ").append(fmt(r.stat(lat, "latency_p99_ms")))
                .append(" | ").append(fmt(r.stat(lat, "latency_max_ms"))).append(" |\n");
        OpcuaRow.report(r, s);

        if (c.rows().contains("onewire")) {
            OnewireRow.report(r, s);
        }
        if (c.rows().contains("serial")) {
            SerialRow.report(r, s);
        }
        s.append(SnmpRow.markdown(r));
        s.append("\nEvery figure of every repetition: `").append(CSV).append("`.\n");
        if (!r.errorReadings().isEmpty()) {
            s.append("\n## Readings in error (the first 3 of each cell)\n\n");
            r.errorReadings().forEach(p -> s.append("- ").append(p).append('\n'));
        }
        if (!r.problems().isEmpty()) {
            s.append("\n## Cells that could not be measured\n\n");
            r.problems().forEach(p -> s.append("- ").append(p).append('\n'));
        }
        return s.toString();
    }

    static String fmt(Stat st) {
        if (st.n() == 0) {
            return "n/a";
        }
        String m = one(st.median());
        return st.n() > 1 && st.min() != st.max() ? m + " [" + one(st.min()) + "-" + one(st.max()) + "]" : m;
    }

    static String two(Stat st) {
        if (st.n() == 0) {
            return "n/a";
        }
        String m = String.format(Locale.ROOT, "%.2f", st.median());
        return st.n() > 1 && st.min() != st.max()
                ? m + String.format(Locale.ROOT, " [%.2f-%.2f]", st.min(), st.max()) : m;
    }

    private static String one(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
