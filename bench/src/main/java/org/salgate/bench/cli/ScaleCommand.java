package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;

import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.scale.ScaleConfig;
import org.salgate.bench.scale.ScaleMode;
import org.salgate.bench.scale.ScaleReport;
import org.salgate.bench.scale.ScaleRunner;
import org.salgate.transport.Transports;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Many clients from several client processes against the real agent: streaming, fan-out, or idle sessions held open. */
@Command(name = "scale", mixinStandardHelpOptions = true,
        description = {"Many clients, spread over client processes, against the real agent in its own JVM.",
                "stream: each client streams one dummy sensor at a fixed interval; every reading's sequence number is"
                        + " checked; the agent's memory and threads per client count.",
                "fanout: every client streams DUMMY_0, first each on a stream of its own, then all on the agent's one"
                        + " shared stream; the agent's frames encoded and CPU per delivered reading in both.",
                "idle: sessions that say hello and stay silent; a fresh client's sensor-list time without and with"
                        + " them, and the agent's memory per idle session.",
                "Client i runs in client process i mod N."})
final class ScaleCommand extends BaseCommand {

    @Option(names = "--mode", paramLabel = "stream|fanout|idle", defaultValue = "stream",
            description = "stream (default), fanout or idle.")
    String mode;

    @Option(names = "--transports", split = ",", paramLabel = "NAME",
            description = "Transports, one fresh agent per cell (default: stream and fanout netty,mina,socket; idle"
                    + " netty,mina).")
    List<String> transports;

    @Option(names = "--clients", split = ",", paramLabel = "N",
            description = "Client counts (stream, default 1,100,300,1000; fanout, default 1,100,1000) or idle sessions"
                    + " (idle, default 10000).")
    List<Integer> clients;

    @Option(names = "--client-processes", paramLabel = "N",
            description = "Client processes per cell, at most one per client (default: enough that none runs more"
                    + " than " + ScaleConfig.MAX_CLIENTS_PER_PROCESS + " clients). Client i runs in process i mod N.")
    Integer clientProcesses;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "30s",
            description = "How long all the streams run together (stream; default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "100",
            description = "Each stream's interval (stream; default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--dummy-sensors", paramLabel = "N", defaultValue = "20",
            description = "The agent's dummy sensors; client i streams DUMMY_(i mod N) (default: ${DEFAULT-VALUE}).")
    int dummySensors;

    @Option(names = "--connect-rate", paramLabel = "PER_S", defaultValue = "500",
            description = "Connections per second, all client processes together (default: ${DEFAULT-VALUE}).")
    int connectRate;

    @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "5s",
            description = "Sensor lists from one client on each fresh agent before it is measured"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--list-calls", paramLabel = "N", defaultValue = "200",
            description = "The fresh client's timed sensor lists (idle; default: ${DEFAULT-VALUE}).")
    int listCalls;

    @Option(names = "--list-warmup-calls", paramLabel = "N", defaultValue = "20",
            description = "The fresh client's sensor lists before those (idle; default: ${DEFAULT-VALUE}).")
    int listWarmupCalls;

    @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "5s",
            description = "How long the agent is sampled before the fresh client's calls, alone and with the idle"
                    + " sessions (idle; default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--tls", description = "Every connection over TLS: the agent serves a certificate made for the run"
            + " (written into the report directory) and every client pins it.")
    boolean tls;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Report directory (default: bench-results/scale-<timestamp>).")
    Path out;

    @Override
    int execute() throws Exception {
        ScaleConfig config = config();
        if (!ProcStat.supported()) {
            throw new IllegalStateException("the bench samples the agent through Linux /proc, which this machine"
                    + " lacks");
        }
        ScaleRunner.Outcome outcome = new ScaleRunner(config, System.out).run();
        Path md = ScaleReport.write(config, outcome, MachineInfo.current());
        out().println("Report: " + md.toAbsolutePath());
        if (!outcome.clean()) {
            out().println("Some cells were not clean (failures, or readings lost, duplicated or reordered); see the"
                    + " report.");
            out().flush();
            return EXIT_CELLS_FAILED;
        }
        out().flush();
        return EXIT_OK;
    }

    ScaleConfig config() {
        try {
            ScaleMode m = switch (mode.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "stream", "streaming" -> ScaleMode.STREAM;
                case "fanout", "fan-out" -> ScaleMode.FANOUT;
                case "idle" -> ScaleMode.IDLE;
                default -> throw new IllegalArgumentException("unknown mode '" + mode + "'; use stream, fanout or idle");
            };
            List<String> ts = transports != null ? transports
                    : m == ScaleMode.IDLE ? List.of("netty", "mina") : List.of("netty", "mina", "socket");
            Set<String> available = Transports.available().keySet();
            for (String t : ts) {
                if (!available.contains(t)) {
                    throw new IllegalArgumentException("unknown transport '" + t + "'; available: "
                            + String.join(", ", available));
                }
            }
            List<Integer> counts = clients != null ? clients
                    : switch (m) {
                        case STREAM -> List.of(1, 100, 300, 1000);
                        case FANOUT -> List.of(1, 100, 1000);
                        case IDLE -> List.of(10_000);
                    };
            if (clientProcesses != null && clientProcesses <= 0) {
                throw new IllegalArgumentException("--client-processes must be at least 1, got " + clientProcesses);
            }
            Path dir = out != null ? out : Path.of("bench-results",
                    "scale-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new ScaleConfig(m, ts, counts, clientProcesses != null ? clientProcesses : 0, duration, intervalMs,
                    dummySensors, connectRate, warmup, listCalls, listWarmupCalls, settle, tls, dir,
                    commandLineAsTyped());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

}
