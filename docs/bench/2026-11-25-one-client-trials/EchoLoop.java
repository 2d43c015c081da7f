// The one-connection echo loop of docs/performance.md ("Where a one-client call's time goes").
// Start a bench server with its stdin held open, then run the loop against its port:
//   sleep 3600 | java -cp bench/target/bench.jar org.salgate.bench.server.BenchServerMain transport netty
//   java -cp bench/target/bench.jar docs/bench/2026-11-25-one-client-trials/EchoLoop.java netty PORT i 10000
// Arguments: transport, port, payload (i = Integer, o = Object, s = String), calls per round.
// Prints the mean round trip of each of 5 rounds.
import java.time.Duration;

import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.Transports;

public class EchoLoop {
    public static void main(String[] args) throws Exception {
        Payload payload = switch (args[2]) {
            case "s" -> Payload.string();
            case "i" -> Payload.integer();
            default -> Payload.object();
        };
        int calls = Integer.parseInt(args[3]);
        try (TransportChannel channel = TransportChannel.connect(Transports.byName(args[0]),
                Integer.parseInt(args[1]), 0, Duration.ofSeconds(10))) {
            for (int round = 0; round < 5; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    channel.call(payload);
                }
                System.out.printf("%s %s %.1f us%n", args[0], payload.name(), (System.nanoTime() - t0) / 1e3 / calls);
            }
        }
    }
}
