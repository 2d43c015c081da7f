package org.salgate.bench.devices;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.salgate.agent.Agent;
import org.salgate.bench.run.Stat;
import org.salgate.client.SalClient;
import org.salgate.model.Reading;
import org.salgate.plugin.onewire.Owserver;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The 1-Wire row of {@code bench devices}: Debian's {@code owserver --fake=10,28} on a loopback
 * port, its DS18B20's temperature read back to back by one client through the agent (the 1-Wire
 * plugin, cached reads on a kept connection), and by the plugin's own owserver client
 * ({@link Owserver}) alone in a loop for as long, the side that goes first alternating between
 * repetitions. Without owserver on the PATH the row is reported not measured, naming the package.
 */
final class OnewireRow {

    static final String CELL = "onewire 1x1";
    private static final long HISTOGRAM_MAX_MICROS = 60_000_000L;
    private static final int TIMEOUT_MS = 2000;

    private final DevicesConfig config;
    private final PrintStream console;

    OnewireRow(DevicesConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    /** One repetition: its figures to {@code record}, or why it could not be measured to {@code problem}. */
    void run(int rep, BiConsumer<String, Map<String, Double>> record, Consumer<String> problem)
            throws InterruptedException {
        String missing = Commands.missing("the 1-Wire row", "owserver", "owserver");
        if (missing != null) {
            console.println("  " + missing);
            problem.accept(missing);
            return;
        }
        Process owserver = null;
        try {
            int port = Commands.freePort();
            owserver = start(port);
            String path;
            try (Owserver lister = new Owserver("127.0.0.1", port, TIMEOUT_MS, false)) {
                path = lister.dirall("/").stream().filter(p -> p.startsWith("/28.")).findFirst()
                        .orElseThrow(() -> new IOException("owserver --fake=10,28 lists no DS18B20")) + "/temperature";
            }
            long nanos = config.pollDuration().toNanos();
            ProtocolConfig bus = new ProtocolConfig("bus", "onewire", "tcp:127.0.0.1:" + port, Map.of(), List.of(),
                    List.of(), List.of(ChannelConfig.read("t", "Cel", Map.of("path", path))));
            try (Agent agent = Agent.builder().port(0).agentId("bench-onewire").platform(new PlatformConfig(List.of(bus)))
                         .deviceTargets(List.of("127.0.0.1:" + port)).start();
                 SalClient client = SalClient.builder().host("127.0.0.1").port(agent.port())
                         .clientName("bench-onewire").connect();
                 Owserver alone = new Owserver("127.0.0.1", port, TIMEOUT_MS, true)) {
                awaitOk(client, "bus.t");
                // a few of each first, so neither side pays for its first calls inside the window
                throughAgent(client, nanos / 10);
                alone(alone, path, nanos / 10);
                boolean agentFirst = rep % 2 == 1;
                double[] ownClient = agentFirst ? null : alone(alone, path, nanos);
                double[] agentSide = throughAgent(client, nanos);
                if (agentFirst) {
                    ownClient = alone(alone, path, nanos);
                }
                Map<String, Double> m = new LinkedHashMap<>();
                m.put("agent_reads_per_s", agentSide[0]);
                m.put("alone_reads_per_s", ownClient[0]);
                m.put("ratio_to_alone", agentSide[0] / ownClient[0]);
                m.put("agent_read_p50_us", agentSide[2]);
                m.put("agent_read_p99_us", agentSide[3]);
                m.put("alone_read_p50_us", ownClient[2]);
                m.put("agent_errors", agentSide[1]);
                m.put("alone_errors", ownClient[1]);
                record.accept(CELL, m);
                console.printf(Locale.ROOT, "  rep %d  1-Wire         agent %8.0f reads/s  owserver client %8.0f reads/s"
                        + "  ratio %.2f%n", rep, agentSide[0], ownClient[0], agentSide[0] / ownClient[0]);
            }
        } catch (IOException | ExecutionException | TimeoutException | Owserver.ErrorReply e) {
            problem.accept("rep " + rep + ", the 1-Wire row: " + e);
        } finally {
            if (owserver != null) {
                owserver.destroyForcibly().waitFor();
            }
        }
    }

    /** Waits until a read of {@code sensor} through the agent is OK: its device lane has connected. */
    static void awaitOk(SalClient client, String sensor) throws InterruptedException, ExecutionException,
            TimeoutException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Reading r;
        while ((r = client.execute(sensor, "read", null).get(10, TimeUnit.SECONDS)).status() != Reading.Status.OK) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the agent cannot read " + sensor + ": " + r.error());
            }
            Thread.sleep(50);
        }
    }

    /** owserver with a fake bus of a DS18S20 and a DS18B20, once it accepts connections. */
    private static Process start(int port) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("owserver", "--fake=10,28", "-p", "127.0.0.1:" + port, "--foreground")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return p;
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !p.isAlive()) {
                    p.destroyForcibly();
                    throw new IOException("owserver did not start on port " + port, e);
                }
                Thread.sleep(50);
            }
        }
    }

    /** Back-to-back reads of {@code bus.t}: {reads/s, errors, p50 us, p99 us}. */
    private static double[] throughAgent(SalClient client, long nanos) throws InterruptedException,
            ExecutionException, TimeoutException {
        Histogram h = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        long errors = 0;
        long start = System.nanoTime();
        long now;
        do {
            long t0 = System.nanoTime();
            Reading r = client.execute("bus.t", "read", null).get(10, TimeUnit.SECONDS);
            now = System.nanoTime();
            if (r.status() != Reading.Status.OK) {
                errors++;
            }
            h.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (now - t0) / 1000)));
        } while (now < start + nanos);
        return new double[] {h.getTotalCount() / ((now - start) / 1e9), errors, h.getValueAtPercentile(50),
                h.getValueAtPercentile(99)};
    }

    /** Back-to-back reads of {@code path} by the owserver client alone: {reads/s, errors, p50 us, p99 us}. */
    private static double[] alone(Owserver client, String path, long nanos) throws IOException {
        Histogram h = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        long errors = 0;
        long start = System.nanoTime();
        long now;
        do {
            long t0 = System.nanoTime();
            try {
                Double.parseDouble(new String(client.read(path), java.nio.charset.StandardCharsets.US_ASCII).strip());
            } catch (Owserver.ErrorReply | NumberFormatException e) {
                errors++;
            }
            now = System.nanoTime();
            h.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (now - t0) / 1000)));
        } while (now < start + nanos);
        return new double[] {h.getTotalCount() / ((now - start) / 1e9), errors, h.getValueAtPercentile(50),
                h.getValueAtPercentile(99)};
    }

    /** The row's section of the report. */
    static void report(DevicesResult r, StringBuilder s) {
        s.append("\n## 1-Wire: one probe through owserver, back to back\n\n");
        s.append(String.format(Locale.ROOT, "Debian's `owserver --fake=10,28` on a loopback port; one client reads the"
                + " DS18B20's `temperature` (channel `bus.t`, owserver's cached reads, the connection kept) through the"
                + " agent's 1-Wire plugin back to back for %d ms, and the plugin's own owserver client"
                + " (`org.salgate.plugin.onewire.Owserver`) reads the same path in a tight loop for as long; the side"
                + " that goes first alternates between repetitions. Target: the agent at %.2f of the client alone or"
                + " more.%n%n", r.config().pollDuration().toMillis(), DevicesReport.CEILING_TARGET));
        Stat ratio = r.stat(CELL, "ratio_to_alone");
        s.append("| through the agent (reads/s) | owserver client alone (reads/s) | agent / alone | target met |"
                + " agent read p50 (us) | p99 (us) | alone p50 (us) | errors, agent / alone |\n"
                + "|---:|---:|---:|---|---:|---:|---:|---:|\n");
        s.append("| ").append(DevicesReport.fmt(r.stat(CELL, "agent_reads_per_s"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "alone_reads_per_s"))).append(" | ")
                .append(DevicesReport.two(ratio)).append(" | ")
                .append(ratio.n() == 0 ? "n/a" : ratio.median() >= DevicesReport.CEILING_TARGET ? "yes" : "**no**")
                .append(" | ").append(DevicesReport.fmt(r.stat(CELL, "agent_read_p50_us"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "agent_read_p99_us"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "alone_read_p50_us"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "agent_errors"))).append(" / ")
                .append(DevicesReport.fmt(r.stat(CELL, "alone_errors"))).append(" |\n");
    }
}
