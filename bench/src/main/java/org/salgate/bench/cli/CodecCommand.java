package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.bench.codec.run.CodecOutcome;
import org.salgate.bench.codec.run.CodecReport;
import org.salgate.bench.codec.run.CodecRun;
import org.salgate.bench.codec.run.CodecRunConfig;
import org.salgate.bench.codec.run.CodecWorkloads;
import org.salgate.bench.codec.run.HarnessConfig;
import org.salgate.bench.report.MachineInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Codec level: size, gzip'd size, encode and decode time and allocation of every codec on every workload. */
@Command(name = "codec", mixinStandardHelpOptions = true,
        description = "Benchmark the codecs alone: encoded and gzip'd bytes, encode/decode time and allocation per message.")
final class CodecCommand extends BaseCommand {

    /** The few codecs a {@code --quick} run uses when none are named, where they exist. */
    static final List<String> QUICK_CODECS = List.of("protobuf", "json", "xml");

    @Option(names = "--codecs", split = ",", paramLabel = "NAME",
            description = "Codecs (default: every payload format; --quick: protobuf,json,xml where present).")
    List<String> codecs;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME",
            description = "Workloads: poi-1, poi-250, poi-461, poi-1884, person, reading, sensor-list "
                    + "(default: all; --quick: poi-1,poi-250,person,reading,sensor-list).")
    List<String> workloads;

    @Option(names = "--warmup", paramLabel = "DURATION", description = "Warm-up per case (default: 2s; --quick: 200ms).")
    Duration warmup;

    @Option(names = "--measure", paramLabel = "DURATION",
            description = "Length of one round of encodes or decodes (default: 1s; --quick: 100ms).")
    Duration measure;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds per case (default: 5; --quick: 3).")
    Integer rounds;

    @Option(names = "--quick", description = "Smoke-test profile: short times and a few codecs and workloads.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: bench-results/codec-<timestamp>).")
    Path out;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the generated workloads (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    int execute() throws Exception {
        CodecRunConfig config = config();
        CodecOutcome outcome = new CodecRun(config, out()).run();
        Path md = CodecReport.write(outcome, MachineInfo.current());
        out().println();
        out().println("Report: " + md.toAbsolutePath());
        out().flush();
        if (!outcome.failures().isEmpty()) {
            out().println(outcome.failures().size() + " case(s) failed; see the report's last section.");
            out().flush();
            return EXIT_CELLS_FAILED;
        }
        return EXIT_OK;
    }

    CodecRunConfig config() {
        List<String> c = codecs != null ? codecs : quick ? quickCodecs() : PayloadFormats.names();
        List<String> w = workloads != null ? workloads : quick ? CodecWorkloads.QUICK : CodecWorkloads.NAMES;
        try {
            CodecRun.checkCodecs(c);
            CodecWorkloads.check(w);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        HarnessConfig base = quick ? HarnessConfig.quick() : HarnessConfig.defaults();
        HarnessConfig harness = new HarnessConfig(warmup != null ? warmup : base.warmup(),
                measure != null ? measure : base.measure(), rounds != null ? rounds : base.rounds());
        Path dir = out != null ? out : Path.of("bench-results",
                "codec-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        String line = "bench " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        return new CodecRunConfig(c, w, seed, harness, dir, line);
    }

    private static List<String> quickCodecs() {
        List<String> present = QUICK_CODECS.stream().filter(PayloadFormats.names()::contains).toList();
        return present.isEmpty() ? PayloadFormats.names().subList(0, 1) : present;
    }
}
