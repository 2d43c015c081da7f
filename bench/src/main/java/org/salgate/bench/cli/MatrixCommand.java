package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;

import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.bench.matrix.CellRun;
import org.salgate.bench.matrix.MatrixConfig;
import org.salgate.bench.matrix.MatrixReport;
import org.salgate.bench.matrix.MatrixRunner;
import org.salgate.bench.report.MachineInfo;
import org.salgate.transport.Transports;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The echo study (seed 002) over every transport with every payload format: one table. */
@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = "Echo Person graphs over each transport with each codec (the serialization study) and report"
                + " the time for the echoes as one codec x transport table.")
final class MatrixCommand extends BaseCommand {

    static final int QUICK_PERSONS = 100;
    static final int QUICK_WARMUP_CALLS = 20;

    @Option(names = "--transports", split = ",", paramLabel = "NAME", defaultValue = "netty,rmi,mina,xsocket,socket,http,grpc",
            description = "Transports, in column order (default: ${DEFAULT-VALUE}).")
    List<String> transports;

    @Option(names = "--codecs", split = ",", paramLabel = "NAME",
            description = "Payload formats, in row order (default: every one there is).")
    List<String> codecs;

    @Option(names = "--persons", paramLabel = "N", description = "Echoes per measurement (default 1000; quick 100).")
    Integer persons;

    @Option(names = "--warmup-calls", paramLabel = "N",
            description = "Warm-up echoes per codec and transport (default 2000; quick 20).")
    Integer warmupCalls;

    @Option(names = "--reps", paramLabel = "N", description = "Measurements per cell (default 3; quick 1).")
    Integer reps;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "2", description = "Seed of the persons (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--quick", description = "A short run: 100 persons, 20 warm-up echoes, 1 rep (explicit options win).")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default: bench-results/matrix-<timestamp>).")
    Path out;

    @Override
    int execute() throws Exception {
        MatrixConfig config = config();
        List<CellRun> runs = new MatrixRunner(config, System.out).run();
        Path md = MatrixReport.write(config, runs, MachineInfo.current());
        out().println();
        out().println(tableOf(md));
        out().println("Report: " + md.toAbsolutePath());
        long failed = runs.stream().filter(r -> !r.ok()).count();
        if (failed > 0) {
            out().println(failed + " measurement(s) failed; see the report's last section.");
            out().flush();
            return EXIT_CELLS_FAILED;
        }
        out().flush();
        return EXIT_OK;
    }

    MatrixConfig config() {
        Set<String> available = Transports.available().keySet();
        for (String t : transports) {
            if (!available.contains(t)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown transport '" + t
                        + "'; available: " + String.join(", ", available));
            }
        }
        List<String> formats = codecs != null ? codecs : PayloadFormats.names();
        for (String c : formats) {
            if (!PayloadFormats.names().contains(c)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown codec '" + c + "'; available: "
                        + String.join(", ", PayloadFormats.names()));
            }
        }
        Path dir = out != null ? out : Path.of("bench-results",
                "matrix-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            return new MatrixConfig(transports, formats,
                    persons != null ? persons : quick ? QUICK_PERSONS : 1000,
                    warmupCalls != null ? warmupCalls : quick ? QUICK_WARMUP_CALLS : 2000,
                    reps != null ? reps : quick ? 1 : 3, seed, dir, commandLineAsTyped());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The first table of the report, for the console. */
    private static String tableOf(Path md) throws java.io.IOException {
        String text = java.nio.file.Files.readString(md);
        int start = text.indexOf("## Time for");
        int end = text.indexOf("\n## ", start + 1);
        return start < 0 ? "" : text.substring(start, end < 0 ? text.length() : end).trim();
    }
}
