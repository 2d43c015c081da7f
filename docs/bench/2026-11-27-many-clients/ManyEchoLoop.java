// Many connections' echo loops in one process, for CPU per call on each side at N clients.
// Start a bench server with its stdin held open, then run this against its port:
//   sleep 3600 | java -cp bench/target/bench.jar org.salgate.bench.server.BenchServerMain transport grpc
//   java -cp bench/target/bench.jar docs/bench/2026-11-27-many-clients/ManyEchoLoop.java grpc PORT i 30 5 SERVER_PID
// Arguments: transport, port, payload (i = Integer, o = Object, s = String), clients, seconds per
// round, the server's process id (-Dwarmup.seconds=S: the warm-up, 5 s by default). Each of 5 rounds prints the calls per second over all clients,
// the mean round trip, and the CPU time per call of this process and of the server (from
// /proc/PID/stat, user + system).
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.LongAdder;

import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.ProgramDefaults;
import org.salgate.transport.Transports;

public class ManyEchoLoop {
    static volatile boolean running = true;
    static volatile int round = -1;

    public static void main(String[] args) throws Exception {
        ProgramDefaults.apply();
        Payload payload = switch (args[2]) {
            case "s" -> Payload.string();
            case "i" -> Payload.integer();
            default -> Payload.object();
        };
        int port = Integer.parseInt(args[1]);
        int clients = Integer.parseInt(args[3]);
        long seconds = Long.parseLong(args[4]);
        long serverPid = Long.parseLong(args[5]);
        List<TransportChannel> channels = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            channels.add(TransportChannel.connect(Transports.byName(args[0]), port, i, Duration.ofSeconds(30)));
        }
        LongAdder calls = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (TransportChannel c : channels) {
            Thread t = new Thread(() -> {
                try {
                    while (running) {
                        c.call(payload);
                        calls.increment();
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(1);
                }
            });
            t.start();
            threads.add(t);
        }
        Thread.sleep(Long.getLong("warmup.seconds", 5) * 1000); // warm-up
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int r = 0; r < 5; r++) {
            long n0 = calls.sum(), c0 = os.getProcessCpuTime(), s0 = serverCpuNanos(serverPid), t0 = System.nanoTime();
            Thread.sleep(seconds * 1000);
            long n = calls.sum() - n0, c = os.getProcessCpuTime() - c0, s = serverCpuNanos(serverPid) - s0;
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%s %s %d clients: %.0f calls/s, RTT %.1f us, client CPU %.2f us/call, server CPU %.2f us/call%n",
                    args[0], payload.name(), clients, n / secs, clients * secs * 1e6 / n, c / 1e3 / n, s / 1e3 / n);
        }
        running = false;
        for (Thread t : threads) {
            t.join();
        }
        for (TransportChannel c : channels) {
            c.close();
        }
    }

    /** User + system CPU of a process, from /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms). */
    static long serverCpuNanos(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }
}
