package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.wire.proto.WireProto;

/**
 * Not a test (surefire's default includes leave it out): a measurement, run on demand with
 * <pre>mvn -B -q -pl transports/grpc -am verify -Dtest=GrpcRoundTripMeasurement -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * One caller, one call at a time, against a real agent with the default platform in this JVM: the
 * round trip of a sensor list (28 sensors), answered inline by the agent, over the typed {@code Sal}
 * service (a blocking stub) and over the {@code SalSession} stream (the Java client), with the
 * server's and the session client's gRPC executor either direct or grpc-java's default pool. The whole matrix runs twice and only the second pass is printed, so that no cell
 * profits from the JIT work of the cells before it. Prints the median and 99th percentile in
 * microseconds and the calls per second.
 */
class GrpcRoundTripMeasurement {

    private static final int WARMUP = Integer.getInteger("warmup", 3_000);
    private static final int CALLS = Integer.getInteger("calls", 5_000);

    private static boolean printing;

    @Test
    void measure() throws Exception {
        matrix();
        printing = true;
        System.out.printf(Locale.ROOT, "%d calls after %d warm-up calls, one at a time; agent and caller in one JVM%n",
                CALLS, WARMUP);
        System.out.printf(Locale.ROOT, "%-8s %-8s %-22s %10s %10s %10s%n", "server", "client", "path", "p50 us",
                "p99 us", "calls/s");
        matrix();
    }

    private static void matrix() throws Exception {
        for (String server : new String[] {GrpcTransportProvider.EXECUTOR_DIRECT, GrpcTransportProvider.EXECUTOR_POOL}) {
            Map<String, String> serverProps = Map.of(GrpcTransportProvider.EXECUTOR, server);
            try (Agent agent = Agent.builder().transport("grpc").host("127.0.0.1").port(0)
                    .serverOptions(o -> o.properties(serverProps)).start()) {
                typed(agent, server);
                for (String client : new String[] {GrpcTransportProvider.EXECUTOR_DIRECT,
                        GrpcTransportProvider.EXECUTOR_POOL}) {
                    session(agent, server, client);
                }
            }
        }
    }

    private static void typed(Agent agent, String server) throws Exception {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", agent.port()).usePlaintext().build();
        try {
            SalGrpc.SalBlockingStub sal = SalGrpc.newBlockingStub(channel);
            WireProto.ListSensors list = WireProto.ListSensors.getDefaultInstance();
            assertEquals(28, sal.listSensors(list).getSensorsCount());
            report(server, "(blocking)", "typed Sal list", time(() -> sal.listSensors(list)));
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static void session(Agent agent, String server, String client) throws Exception {
        try (SalClient sal = SalClient.builder().transport("grpc").host("127.0.0.1").port(agent.port())
                .transportProperties(Map.of(GrpcTransportProvider.EXECUTOR, client)).connect()) {
            assertEquals(28, sal.listSensors().get().size());
            report(server, client, "SalSession list", time(() -> sal.listSensors().get()));
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    /** Nanoseconds of each measured call, sorted. */
    private static long[] time(Call call) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        long[] nanos = new long[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long start = System.nanoTime();
            call.run();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static void report(String server, String client, String path, long[] sorted) {
        if (!printing) {
            return;
        }
        long total = Arrays.stream(sorted).sum();
        System.out.printf(Locale.ROOT, "%-8s %-8s %-22s %10.1f %10.1f %10.0f%n", server, client, path,
                sorted[sorted.length / 2] / 1e3, sorted[(int) (sorted.length * 0.99)] / 1e3,
                sorted.length / (total / 1e9));
    }
}
