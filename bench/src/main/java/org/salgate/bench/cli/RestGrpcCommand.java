package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.restgrpc.Operation;
import org.salgate.bench.restgrpc.RestGrpcConfig;
import org.salgate.bench.restgrpc.RestGrpcReport;
import org.salgate.bench.restgrpc.RestGrpcResult;
import org.salgate.bench.restgrpc.RestGrpcRunner;
import org.salgate.transport.Transports;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Seed 001 repeated: the agent's REST/JSON API against its gRPC service, latency and bytes per call. */
@Command(name = "rest-grpc", mixinStandardHelpOptions = true,
        description = "The real agent's REST/JSON API (http transport) against its typed gRPC service (grpc"
                + " transport), the same operations: end-to-end latency at 1 client and bytes on the wire per call.")
final class RestGrpcCommand extends BaseCommand {

    @Option(names = "--operations", split = ",", paramLabel = "OP", defaultValue = "list,read,describe",
            description = "Operations: list, read, describe (default: ${DEFAULT-VALUE}).")
    List<String> operations;

    @Option(names = "--reps", paramLabel = "N", description = "Timed repetitions per operation and API (default 5; quick 1).")
    Integer reps;

    @Option(names = "--duration", paramLabel = "DURATION",
            description = "Length of one timed repetition (default 10s; quick 1s).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "DURATION",
            description = "Warm-up per operation and API before the first repetition (default 5s; quick 500ms).")
    Duration warmup;

    @Option(names = "--byte-calls", paramLabel = "N",
            description = "Calls counted per operation and API for the bytes on the wire (default 1000; quick 50).")
    Integer byteCalls;

    @Option(names = "--dummy-sensors", paramLabel = "N", defaultValue = "20",
            description = "Dummy sensors of each agent, besides the OS sensors (default: ${DEFAULT-VALUE}).")
    int dummySensors;

    @Option(names = "--quick", description = "A short run for a smoke test: 1 rep of 1 s (explicit options win).")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default: bench-results/rest-grpc-<timestamp>).")
    Path out;

    @Override
    int execute() throws Exception {
        RestGrpcConfig config = config();
        RestGrpcResult result = new RestGrpcRunner(config, System.out).run();
        Path md = RestGrpcReport.write(result, MachineInfo.current());
        String text = java.nio.file.Files.readString(md);
        int start = text.indexOf("## End-to-end");
        int end = text.indexOf("## What seed 001");
        out().println();
        out().println(start < 0 || end < 0 ? "" : text.substring(start, end).trim());
        out().println("Report: " + md.toAbsolutePath());
        if (!result.errors().isEmpty()) {
            out().println(result.errors().size() + " measurement(s) failed; see the report's last section.");
            out().flush();
            return EXIT_CELLS_FAILED;
        }
        out().flush();
        return EXIT_OK;
    }

    RestGrpcConfig config() {
        for (String t : List.of("http", "grpc")) {
            if (!Transports.available().containsKey(t)) {
                throw new IllegalStateException("the " + t + " transport is not on the class path; rest-grpc needs both"
                        + " http and grpc");
            }
        }
        try {
            List<Operation> ops = new ArrayList<>();
            for (String name : operations) {
                ops.add(parse(name));
            }
            Path dir = out != null ? out : Path.of("bench-results",
                    "rest-grpc-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new RestGrpcConfig(ops.stream().distinct().toList(), reps != null ? reps : quick ? 1 : 5,
                    duration != null ? duration : quick ? Duration.ofSeconds(1) : Duration.ofSeconds(10),
                    warmup != null ? warmup : quick ? Duration.ofMillis(500) : Duration.ofSeconds(5),
                    byteCalls != null ? byteCalls : quick ? 50 : 1000, dummySensors, dir, quick, commandLineAsTyped());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static Operation parse(String name) {
        for (Operation op : Operation.values()) {
            if (op.id().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + name + "'; use list, read, describe");
    }
}
