// How often a MINA server's stop makes MINA report to its exception monitor (docs/performance.md,
// "MINA's server: its processors disposed once their loops have left"): in this JVM, N times in a
// row, a MINA bench echo server starts on a free port, over TLS with a certificate made for the run
// or plain, one client connects and completes its hello, and the server stops with that session
// open; then the client closes. Every report to MINA's exception monitor is counted by the thread
// that made it (the server's or the client's), the first two printed with their stack.
//   java -cp bench/target/bench.jar docs/bench/2026-11-28-mina-server-stop/StopTls.java N tls|plain
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.mina.util.ExceptionMonitor;
import org.salgate.bench.server.BenchServerMain;
import org.salgate.bench.server.BenchTls;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;

public class StopTls {
    public static void main(String[] args) throws Exception {
        AtomicInteger reported = new AtomicInteger();
        Map<String, AtomicInteger> byThread = new ConcurrentHashMap<>();
        ExceptionMonitor.setInstance(new ExceptionMonitor() {
            @Override
            public void exceptionCaught(Throwable cause) {
                String name = Thread.currentThread().getName();
                String side = name.contains("server") ? "server" : name.contains("client") ? "client" : name;
                byThread.computeIfAbsent(side, k -> new AtomicInteger()).incrementAndGet();
                if (reported.incrementAndGet() <= 2) {
                    System.out.println("on " + name + ":");
                    cause.printStackTrace(System.out);
                }
            }
        });
        int n = Integer.parseInt(args[0]);
        boolean tls = args[1].equals("tls");
        Path dir = Files.createTempDirectory("mina-server-stop");
        BenchTls benchTls = BenchTls.create(dir);
        TlsConfig serverTls = tls ? TlsConfig.serverFromPem(dir.resolve("tls-cert.pem"), dir.resolve("tls-key.pem")) : null;
        TransportProvider mina = Transports.byName("mina");
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            BenchServerMain.EchoService server = BenchServerMain.startEchoService(mina, serverTls, false);
            TransportChannel channel = TransportChannel.connect(mina, server.port(), i, Duration.ofSeconds(30),
                    tls ? benchTls.client() : null);
            server.close();
            channel.close();
        }
        Thread.sleep(1500); // a loop that reports does so within its select's timeout
        System.out.printf("%s: %d stops, %d exceptions from MINA's monitor %s, %.2f ms per start+connect+stop%n",
                args[1], n, reported.get(), byThread, (System.nanoTime() - t0) / 1e6 / n);
    }
}
