// How often a MINA client's close makes MINA report a ClosedSelectorException (docs/performance.md,
// "MINA's client: its processor disposed once its loop has left"): a MINA bench server in its own
// JVM (the bench servers' flags), over TLS with a certificate made for the run or plain; one client
// in this JVM connects, completes its hello and closes, N times in a row. Every report to MINA's
// exception monitor is counted (the first two printed with their stack).
//   java -cp bench/target/bench.jar docs/bench/2026-11-28-mina-close/CloseTls.java N tls|plain
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.mina.util.ExceptionMonitor;
import org.salgate.bench.server.BenchTls;
import org.salgate.bench.server.ServerProcess;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;

public class CloseTls {
    public static void main(String[] args) throws Exception {
        AtomicInteger reported = new AtomicInteger();
        ExceptionMonitor.setInstance(new ExceptionMonitor() {
            @Override
            public void exceptionCaught(Throwable cause) {
                if (reported.incrementAndGet() <= 2) {
                    cause.printStackTrace(System.out);
                }
            }
        });
        int n = Integer.parseInt(args[0]);
        boolean tls = args[1].equals("tls");
        Path dir = Files.createTempDirectory("mina-close");
        BenchTls benchTls = BenchTls.create(dir);
        List<String> serverArgs = new ArrayList<>(List.of("transport", "mina"));
        if (tls) {
            serverArgs.addAll(benchTls.serverArgs());
        }
        try (ServerProcess server = ServerProcess.start(serverArgs, dir.resolve("server.log"))) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                TransportChannel channel = TransportChannel.connect(Transports.byName("mina"), server.port(), i,
                        Duration.ofSeconds(30), tls ? TlsConfig.clientPinned(benchTls.pin()) : null);
                channel.close();
            }
            Thread.sleep(1000); // a loop that reports does so within its select's timeout
            System.out.printf("%s: %d closes, %d exceptions from MINA's monitor, %.2f ms per connect+close%n",
                    args[1], n, reported.get(), (System.nanoTime() - t0) / 1e6 / n);
        }
    }
}
