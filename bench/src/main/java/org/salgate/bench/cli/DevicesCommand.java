package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import org.salgate.bench.devices.DevicesConfig;
import org.salgate.bench.devices.DevicesReport;
import org.salgate.bench.devices.DevicesResult;
import org.salgate.bench.devices.DevicesRunner;
import org.salgate.bench.report.MachineInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The agent polling Modbus TCP devices: read rate against j2mod alone, batches, many devices streamed, latency. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"The agent (in the bench's JVM, with its Modbus plugin) polling Modbus TCP devices, one device"
                + " per port of one server: j2mod's slave in the bench's JVM (default) or pymodbus.",
                "poll: 1 device x 1 register read back to back through the agent against j2mod's own client in a"
                        + " tight loop (the ceiling); batch: K registers of 1 device in one poll, Modbus requests per"
                        + " poll counted at the server; stream: M devices x N registers streamed at the interval;"
                        + " latency: a register change to a client seeing it.",
                "1-Wire: reads/s of owserver --fake through the agent against the plugin's owserver client alone;"
                        + " serial: lines/s through a socat pty pair (115200 baud, and flat out) against jSerialComm"
                        + " alone (Debian: owserver, socat)."})
final class DevicesCommand extends BaseCommand {

    @Option(names = "--server", paramLabel = "jvm|pymodbus", defaultValue = "jvm",
            description = "The devices' server: jvm (j2mod in the bench's JVM) or pymodbus (/usr/bin/python3 with"
                    + " python3-pymodbus) (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--reps", paramLabel = "N", description = "Repetitions of every cell (default 3; quick 1).")
    Integer reps;

    @Option(names = "--poll-duration", paramLabel = "DURATION",
            description = "Back-to-back reads through the agent, then as long through j2mod alone (default 5s; quick"
                    + " 500ms).")
    Duration pollDuration;

    @Option(names = "--batch", split = ",", paramLabel = "K", description = "Registers per poll (default 1,10,100).")
    List<Integer> batch;

    @Option(names = "--polls", paramLabel = "N", description = "Polls per batch cell (default 200; quick 20).")
    Integer polls;

    @Option(names = "--devices", split = ",", paramLabel = "M",
            description = "Devices streamed together (default 10,100; quick 2,5).")
    List<Integer> devices;

    @Option(names = "--registers", paramLabel = "N", defaultValue = "10",
            description = "Registers per device in the stream cells (default: ${DEFAULT-VALUE}).")
    int registers;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "100",
            description = "Every stream's interval (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--warmup", paramLabel = "DURATION",
            description = "Streams running before a stream cell's window (default 3s; quick 300ms).")
    Duration warmup;

    @Option(names = "--duration", paramLabel = "DURATION",
            description = "A stream cell's measured window (default 20s; quick 1s).")
    Duration duration;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "4",
            description = "Client connections a stream cell's streams are spread over (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--latency-changes", paramLabel = "N",
            description = "Register changes timed per repetition (default 100; quick 5).")
    Integer latencyChanges;

    @Option(names = "--rows", split = ",", paramLabel = "ROW",
            description = "The rows besides Modbus's: onewire (needs Debian's owserver), serial (needs socat), snmp"
                    + " (100 OIDs of Debian's snmpd read in one batch through the agent, against SNMP4J's own GET and"
                    + " GETBULK of them), or none (default onewire,serial,snmp).")
    List<String> rows;

    @Option(names = "--note", paramLabel = "TEXT", description = "A line for the report's header (repeatable).")
    List<String> notes;

    @Option(names = "--quick", description = "A short run for a smoke test (explicit options win).")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default: bench-results/devices-<timestamp>).")
    Path out;

    @Override
    int execute() throws Exception {
        DevicesConfig config = config();
        String loadBefore = loadAverage();
        DevicesResult result = new DevicesRunner(config, System.out).run();
        List<String> header = new java.util.ArrayList<>(notes == null ? List.of() : notes);
        if (loadBefore != null) {
            header.add("Load average (1, 5, 15 min, from /proc/loadavg) at the start: " + loadBefore + "; at the end: "
                    + loadAverage() + ".");
        }
        Path md = DevicesReport.write(result, MachineInfo.current(), header);
        out().println("Report: " + md.toAbsolutePath());
        if (result.cells().isEmpty() || !result.problems().isEmpty()) {
            out().println("Some cells could not be measured; see the report's last section.");
            out().flush();
            return EXIT_CELLS_FAILED;
        }
        out().flush();
        return EXIT_OK;
    }

    /** The first three figures of /proc/loadavg, or null where there is none. */
    private static String loadAverage() {
        try {
            String[] f = java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    DevicesConfig config() {
        try {
            Path dir = out != null ? out : Path.of("bench-results",
                    "devices-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new DevicesConfig(server.trim().toLowerCase(java.util.Locale.ROOT), reps != null ? reps : quick ? 1 : 3,
                    pollDuration != null ? pollDuration : quick ? Duration.ofMillis(500) : Duration.ofSeconds(5),
                    batch != null ? batch : List.of(1, 10, 100), polls != null ? polls : quick ? 20 : 200,
                    devices != null ? devices : quick ? List.of(2, 5) : List.of(10, 100), registers, intervalMs,
                    warmup != null ? warmup : quick ? Duration.ofMillis(300) : Duration.ofSeconds(3),
                    duration != null ? duration : quick ? Duration.ofSeconds(1) : Duration.ofSeconds(20), clients,
                    latencyChanges != null ? latencyChanges : quick ? 5 : 100, quick, dir, commandLineAsTyped(),
                    rows == null ? DevicesConfig.ROWS : rows.equals(List.of("none")) ? List.of() : rows);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
