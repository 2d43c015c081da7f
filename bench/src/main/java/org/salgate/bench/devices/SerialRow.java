package org.salgate.bench.devices;

import com.fazecast.jSerialComm.SerialPort;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.salgate.agent.Agent;
import org.salgate.bench.run.Stat;
import org.salgate.client.SalClient;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The serial row of {@code bench devices}: a weather station's line ({@link #LINE}) written into one
 * end of a socat pair of pseudo-terminals, paced at 115200 baud (a pty has no baud rate of its
 * own: the writer keeps to 11520 bytes/s) and, in a second cell, as fast as the reader takes it;
 * the other end read by the agent's serial plugin (lines/s from its {@code count=lines} channel,
 * read through a client at the window's ends) and by jSerialComm alone reading the same pty and
 * counting line ends, for as long, the side that goes first alternating between repetitions.
 * Without socat on the PATH the row is reported not measured, naming the package.
 */
final class SerialRow {

    static final String PACED = "serial 115200";
    static final String FLAT_OUT = "serial flat out";
    static final String LINE = "T=21.5C H=40% P=1013.2hPa\r\n";
    private static final int BAUD = 115_200;
    /** 8N1: ten bits a byte on the wire. */
    private static final int BYTES_PER_S = BAUD / 10;

    private final DevicesConfig config;
    private final PrintStream console;

    SerialRow(DevicesConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    /** One repetition of both cells: figures to {@code record}, or why not to {@code problem}. */
    void run(int rep, BiConsumer<String, Map<String, Double>> record, Consumer<String> problem)
            throws InterruptedException {
        String missing = Commands.missing("the serial row", "socat", "socat");
        if (missing != null) {
            console.println("  " + missing);
            problem.accept(missing);
            return;
        }
        for (String cell : List.of(PACED, FLAT_OUT)) {
            try (Line line = new Line(cell.equals(PACED))) {
                long nanos = config.pollDuration().toNanos();
                boolean agentFirst = rep % 2 == 1;
                double[] alone = agentFirst ? null : alone(line, nanos);
                double[] agent = throughAgent(line, nanos);
                if (agentFirst) {
                    alone = alone(line, nanos);
                }
                Map<String, Double> m = new LinkedHashMap<>();
                m.put("agent_lines_per_s", agent[0]);
                m.put("agent_written_per_s", agent[1]);
                m.put("alone_lines_per_s", alone[0]);
                m.put("alone_written_per_s", alone[1]);
                m.put("ratio_to_alone", agent[0] / alone[0]);
                m.put("agent_rejected", agent[2]);
                record.accept(cell, m);
                console.printf(Locale.ROOT, "  rep %d  %-15s agent %8.0f lines/s  jSerialComm %8.0f lines/s  ratio"
                        + " %.2f%n", rep, cell, agent[0], alone[0], agent[0] / alone[0]);
            } catch (IOException | ExecutionException | TimeoutException e) {
                problem.accept("rep " + rep + ", " + cell + ": " + e);
            }
        }
    }

    /** The agent reading the line: {lines/s parsed, lines/s written meanwhile, lines rejected}. */
    private double[] throughAgent(Line line, long nanos) throws IOException, InterruptedException,
            ExecutionException, TimeoutException {
        ProtocolConfig station = new ProtocolConfig("station", "serial", "serial:" + line.device() + "?baud=" + BAUD,
                Map.of("format", "pattern", "pattern", "T=(?<t>-?[0-9.]+)C H=(?<h>[0-9]+)% P=(?<p>[0-9.]+)hPa"),
                List.of(), List.of(), List.of(
                        ChannelConfig.read("temperature", "Cel", Map.of("group", "t")),
                        ChannelConfig.read("humidity", "%", Map.of("group", "h")),
                        ChannelConfig.read("pressure", "hPa", Map.of("group", "p")),
                        ChannelConfig.read("lines", "1", Map.of("count", "lines")),
                        ChannelConfig.read("rejected", "1", Map.of("count", "rejected"))));
        try (Agent agent = Agent.builder().port(0).agentId("bench-serial")
                     .platform(new PlatformConfig(List.of(station))).deviceTargets(List.of(line.dir() + "/*")).start();
             SalClient client = SalClient.builder().host("127.0.0.1").port(agent.port())
                     .clientName("bench-serial").connect()) {
            OnewireRow.awaitOk(client, "station.temperature");
            // what waited in the pty while nobody read it is taken before the window
            Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(nanos / 10)));
            long written0 = line.written();
            long lines0 = count(client, "station.lines");
            long start = System.nanoTime();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(nanos));
            long lines1 = count(client, "station.lines");
            double seconds = (System.nanoTime() - start) / 1e9;
            long written1 = line.written();
            return new double[] {(lines1 - lines0) / seconds, (written1 - written0) / seconds,
                    count(client, "station.rejected")};
        }
    }

    private static long count(SalClient client, String sensor) throws InterruptedException, ExecutionException,
            TimeoutException, IOException {
        Reading r = client.execute(sensor, "read", null).get(10, TimeUnit.SECONDS);
        if (r.status() != Reading.Status.OK || !(r.value() instanceof Value.Int i)) {
            throw new IOException("the agent's " + sensor + " read " + r.status() + " " + r.error());
        }
        return i.value();
    }

    /** jSerialComm alone reading the line: {lines/s, lines/s written meanwhile}. */
    private static double[] alone(Line line, long nanos) throws IOException {
        SerialPort port = SerialPort.getCommPort(line.device().toString());
        port.setComPortParameters(BAUD, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING, 200, 0);
        if (!port.openPort()) {
            throw new IOException("jSerialComm cannot open " + line.device() + " (error " + port.getLastErrorCode() + ")");
        }
        try {
            byte[] buffer = new byte[4096];
            // what waited in the pty while nobody read it is taken before the window
            readLines(port, buffer, System.nanoTime() + Math.max(200_000_000L, nanos / 10));
            long written0 = line.written();
            long start = System.nanoTime();
            long lines = readLines(port, buffer, start + nanos);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new double[] {lines / seconds, (line.written() - written0) / seconds};
        } finally {
            port.closePort();
        }
    }

    /** The line ends read until {@code until} ({@link System#nanoTime()}). */
    private static long readLines(SerialPort port, byte[] buffer, long until) throws IOException {
        long lines = 0;
        while (System.nanoTime() < until) {
            int n = port.readBytes(buffer, buffer.length);
            if (n < 0) {
                throw new IOException("jSerialComm lost the pty (error " + port.getLastErrorCode() + ")");
            }
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n') {
                    lines++;
                }
            }
        }
        return lines;
    }

    /** A socat pair of pseudo-terminals under /dev/shm and a thread writing {@link #LINE} into one end. */
    private static final class Line implements AutoCloseable {
        private final Path dir;
        private final Process socat;
        private final Thread writer;
        private final AtomicLong written = new AtomicLong();
        private volatile boolean closed;

        Line(boolean paced) throws IOException, InterruptedException {
            dir = Files.createTempDirectory(Path.of("/dev/shm"), "salgate-bench-serial-");
            socat = new ProcessBuilder("socat", "pty,raw,echo=0,link=" + device(),
                    "pty,raw,echo=0,link=" + dir.resolve("instrument")).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(device()) || !Files.exists(dir.resolve("instrument"))) {
                if (System.nanoTime() > deadline) {
                    close();
                    throw new IOException("socat made no pair of pseudo-terminals in 10 s");
                }
                Thread.sleep(10);
            }
            writer = new Thread(() -> write(paced), "bench-serial-instrument");
            writer.setDaemon(true);
            writer.start();
        }

        Path dir() {
            return dir;
        }

        Path device() {
            return dir.resolve("device");
        }

        long written() {
            return written.get();
        }

        /** Lines as fast as the pty takes them, or kept to 115200 baud's bytes per second. */
        private void write(boolean paced) {
            byte[] line = LINE.getBytes(StandardCharsets.US_ASCII);
            byte[] chunk = LINE.repeat(16).getBytes(StandardCharsets.US_ASCII);
            try (OutputStream out = Files.newOutputStream(dir.resolve("instrument"), StandardOpenOption.WRITE)) {
                long start = System.nanoTime();
                while (!closed) {
                    if (paced) {
                        long due = (System.nanoTime() - start) * BYTES_PER_S / 1_000_000_000L / line.length;
                        if (written.get() >= due) {
                            Thread.sleep(1);
                            continue;
                        }
                        out.write(line);
                        written.incrementAndGet();
                    } else {
                        out.write(chunk);
                        written.addAndGet(16);
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the pair closed
            }
        }

        @Override
        public void close() throws InterruptedException {
            closed = true;
            socat.destroy();
            socat.waitFor(10, TimeUnit.SECONDS);
            if (writer != null) {
                writer.interrupt();
                writer.join(5000);
            }
            try {
                Files.deleteIfExists(device());
                Files.deleteIfExists(dir.resolve("instrument"));
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // a temporary directory of /dev/shm left behind
            }
        }
    }

    /** The row's section of the report. */
    static void report(DevicesResult r, StringBuilder s) {
        s.append("\n## Serial: a line instrument through a socat pty pair\n\n");
        s.append(String.format(Locale.ROOT, "A weather station's line (`%s`, %d bytes) written into one end of a"
                + " `socat` pair of pseudo-terminals, the other end read for %d ms by the agent's serial plugin"
                + " (`serial:...?baud=115200`, format `pattern`, three values and the counts; lines/s from its"
                + " `count=lines` channel read through a client at the window's ends) and by jSerialComm alone"
                + " reading the same pty and counting line ends, for as long; the side that goes first alternates"
                + " between repetitions. A pty has no baud rate: in the 115200 cell the writer keeps to 11520 bytes/s"
                + " (8N1), about %d lines/s; flat out, it writes as fast as the reader takes them. Written: the lines"
                + " the writer wrote in the same window. Target: the agent at %.2f of jSerialComm alone or more.%n%n",
                LINE.strip(), LINE.length(), r.config().pollDuration().toMillis(), BYTES_PER_S / LINE.length(),
                DevicesReport.CEILING_TARGET));
        s.append("| cell | through the agent (lines/s) | written meanwhile | jSerialComm alone (lines/s) | written"
                + " meanwhile | agent / alone | target met | rejected lines (agent) |\n"
                + "|---|---:|---:|---:|---:|---:|---|---:|\n");
        for (String cell : List.of(PACED, FLAT_OUT)) {
            Stat ratio = r.stat(cell, "ratio_to_alone");
            s.append("| ").append(cell).append(" | ").append(DevicesReport.fmt(r.stat(cell, "agent_lines_per_s")))
                    .append(" | ").append(DevicesReport.fmt(r.stat(cell, "agent_written_per_s"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "alone_lines_per_s"))).append(" | ")
                    .append(DevicesReport.fmt(r.stat(cell, "alone_written_per_s"))).append(" | ")
                    .append(DevicesReport.two(ratio)).append(" | ")
                    .append(ratio.n() == 0 ? "n/a" : ratio.median() >= DevicesReport.CEILING_TARGET ? "yes" : "**no**")
                    .append(" | ").append(DevicesReport.fmt(r.stat(cell, "agent_rejected"))).append(" |\n");
        }
    }
}
