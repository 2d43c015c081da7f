// What one client's connect, hello and close cost the agent, over TLS and without: the bench's
// agent (the one `bench scale` starts, in its own JVM with the bench servers' flags) serves a
// certificate made for the run; one client in this JVM connects, completes its hello and closes,
// CONNECTS times in a row, in blocks; per block, the wall time per connect and the agent's CPU
// time per connect (utime + stime from /proc/<pid>/stat, 10 ms ticks), and this JVM's.
//   java -cp bench/target/bench.jar docs/bench/2026-11-27-tls-connects/TlsConnects.java \
//       TRANSPORT plain|tls|tls-shared BLOCKS CONNECTS_PER_BLOCK [AGENT_JFR_FILE]
// tls: every connect with a TLS configuration of its own, as the bench's scale clients connect
// (each a new client to the agent); tls-shared: every connect with the same one, as one client
// that connects again (which may resume its TLS session).
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.server.BenchTls;
import org.salgate.bench.server.ServerProcess;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;

public class TlsConnects {
    public static void main(String[] args) throws Exception {
        String transport = args[0];
        String mode = args[1];
        boolean tls = !mode.equals("plain");
        int blocks = Integer.parseInt(args[2]);
        int perBlock = Integer.parseInt(args[3]);
        Path dir = Files.createTempDirectory("tls-connects");
        BenchTls benchTls = tls ? BenchTls.create(dir) : null;
        List<String> serverArgs = new ArrayList<>(List.of("agent", transport, "20"));
        if (tls) {
            serverArgs.addAll(benchTls.serverArgs());
        }
        TransportProvider provider = Transports.byName(transport);
        var self = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (ServerProcess agent = ServerProcess.start(serverArgs, dir.resolve("agent.log"))) {
            ProcStat stat = new ProcStat(agent.pid());
            if (args.length > 4) {
                jcmd(agent.pid(), "JFR.start", "settings=profile");
            }
            for (int b = 1; b <= blocks; b++) {
                ProcStat.Reading a0 = stat.read();
                long c0 = self.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int i = 0; i < perBlock; i++) {
                    TransportChannel ch = TransportChannel.connect(provider, agent.port(), i, Duration.ofSeconds(30),
                            !tls ? null : mode.equals("tls-shared") ? benchTls.client()
                                    : TlsConfig.clientPinned(benchTls.pin()));
                    ch.close();
                }
                long wall = System.nanoTime() - t0;
                long client = self.getProcessCpuTime() - c0;
                ProcStat.Reading a1 = stat.read();
                System.out.printf("%s %s block %d: %d connects, %.2f ms wall, agent CPU %.2f ms, this JVM's CPU %.2f ms"
                        + " per connect%n", transport, mode, b, perBlock, wall / 1e6 / perBlock,
                        (a1.cpuNanos() - a0.cpuNanos()) / 1e6 / perBlock, client / 1e6 / perBlock);
            }
            if (args.length > 4) {
                jcmd(agent.pid(), "JFR.dump", "filename=" + Path.of(args[4]).toAbsolutePath());
            }
        }
    }

    private static void jcmd(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        Process p = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed");
        }
    }
}
