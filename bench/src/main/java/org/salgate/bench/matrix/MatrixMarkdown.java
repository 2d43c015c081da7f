package org.salgate.bench.matrix;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.salgate.bench.report.MachineInfo;

/** The Markdown report of a matrix run: the tables, how they were measured, and the study's own numbers. */
final class MatrixMarkdown {

    private MatrixMarkdown() {}

    static String render(MatrixConfig config, List<CellSummary> cells, MachineInfo machine) {
        StringBuilder b = new StringBuilder();
        b.append("# salgate bench matrix: ").append(config.persons()).append(" Person echoes, codec x transport\n\n");
        b.append("Command: `").append(config.commandLine()).append("`\n\n");
        b.append("Machine: ").append(machine.describe()).append(".\n\n");
        b.append(MachineInfo.SHARED_MACHINE).append(" The machine (").append(machine.cores())
                .append(" cores) may have been running other work at the same time, so compare the cells of one run"
                        + " with each other rather than with other runs.\n\n");
        b.append("## What a cell measures\n\n");
        b.append("Seed 002's echo study over salgate: ").append(config.persons())
                .append(" Person graphs (`StudyData.persons(").append(config.persons()).append(", ")
                .append(config.seed()).append(")`, a person with an address, children and friends who are persons)"
                        + " sent one per call and echoed back. Each call is a salgate `Request(Call.Echo(Value.Bytes("
                        + "envelope)))`; the envelope is one byte with the length of the format name, the name in"
                        + " ASCII, then the person encoded with that format. The connection's own message codec stays"
                        + " protobuf: salgate's framing around the opaque bytes, a few bytes per call, the same for every"
                        + " format. The server under test (a child JVM, one per transport) decodes the person with the"
                        + " named format and encodes it again, as the study's server did.\n\n");
        b.append("A cell's time is the wall time of the ").append(config.persons()).append(" sequential calls (encode,"
                + " send, wait for the answer, decode), after ").append(config.warmupCalls())
                .append(" warm-up calls on the same connection. Every format on a transport is warmed up before any"
                        + " is measured, and each repetition measures every format once, starting from a different one,"
                        + " so that no format always runs first. Every answer is compared with the person sent after the"
                        + " clock stops, and a difference fails the repetition. Median of ").append(config.reps())
                .append(" repetition(s) [min-max], in ms. Server CPU is read from /proc over the measured calls"
                        + " (100 % = one core; the kernel counts it in 10 ms ticks, coarse for short cells).\n\n");

        List<String> codecs = config.codecs();
        List<String> transports = config.transports();
        b.append("## Time for ").append(config.persons()).append(" echoes (ms), median [min-max]\n\n");
        table(b, codecs, transports, cells, c -> c.ok() == 0 ? "failed"
                : String.format(Locale.ROOT, "%.0f [%.0f-%.0f]", c.medianMillis(), c.minMillis(), c.maxMillis()));

        b.append("\n## Normalized to protobuf on the same transport (time / protobuf's time)\n\n");
        if (!codecs.contains("protobuf")) {
            b.append("protobuf was not among the codecs measured, so there is nothing to normalize to.\n");
        } else {
            table(b, codecs, transports, cells, c -> {
                double r = MatrixReport.relative(cells, c);
                return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f", r) : "-";
            });
        }

        b.append("\n## Bytes per call (mean request envelope; the answer is the same format)\n\n");
        b.append("| codec | bytes/call |\n|---|---:|\n");
        for (String codec : codecs) {
            double bytes = cells.stream().filter(c -> c.codec().equals(codec) && Double.isFinite(c.bytesPerCall()))
                    .mapToDouble(CellSummary::bytesPerCall).findFirst().orElse(Double.NaN);
            b.append("| ").append(codec).append(" | ")
                    .append(Double.isFinite(bytes) ? String.format(Locale.ROOT, "%.0f", bytes) : "-").append(" |\n");
        }

        b.append("\n## Server CPU during the measured echoes (%, 100 = one core)\n\n");
        table(b, codecs, transports, cells, c -> Double.isFinite(c.serverCpuPercent())
                ? String.format(Locale.ROOT, "%.0f", c.serverCpuPercent()) : "-");

        b.append("\n## The study's own numbers, for reference\n\n");
        b.append("Seed 002 (first result block): time in ms for 1000 Person echoes over JBoss Remoting, on the study's"
                + " own machine, with its own Person generator and libraries (Java serialization, JSON with json-lib, Protocol"
                + " Buffers). They are the study's numbers, not measured here, and not comparable in absolute terms.\n\n");
        b.append("| serializer | SOCKET | HTTP | RMI |\n|---|---:|---:|---:|\n");
        b.append("| Java | 1982 | 1524 | 1506 |\n");
        b.append("| JSON | 19983 | 19247 | 19777 |\n");
        b.append("| Protobuf | 967 | 456 | 496 |\n");

        List<CellSummary> failed = cells.stream().filter(c -> c.failed() > 0).toList();
        if (!failed.isEmpty()) {
            b.append("\n## Failed cells\n\n");
            for (CellSummary c : failed) {
                b.append("- ").append(c.transport()).append(" / ").append(c.codec()).append(": ").append(c.failed())
                        .append(" of ").append(c.ok() + c.failed()).append(" repetition(s) failed: ")
                        .append(c.firstError()).append('\n');
            }
        }
        return b.toString();
    }

    private static void table(StringBuilder b, List<String> codecs, List<String> transports, List<CellSummary> cells,
                              Function<CellSummary, String> cell) {
        b.append("| codec |");
        transports.forEach(t -> b.append(' ').append(t).append(" |"));
        b.append("\n|---|");
        transports.forEach(t -> b.append("---:|"));
        b.append('\n');
        for (String codec : codecs) {
            b.append("| ").append(codec).append(" |");
            for (String t : transports) {
                String v = cells.stream().filter(c -> c.codec().equals(codec) && c.transport().equals(t)).findFirst()
                        .map(cell).orElse("-");
                b.append(' ').append(v).append(" |");
            }
            b.append('\n');
        }
    }
}
