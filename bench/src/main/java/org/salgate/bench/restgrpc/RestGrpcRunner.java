package org.salgate.bench.restgrpc;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import org.HdrHistogram.Histogram;
import org.salgate.bench.restgrpc.RestGrpcResult.Api;
import org.salgate.bench.server.ServerProcess;

/**
 * Runs seed 001's two measurements against the real agent: one agent on the HTTP transport and one
 * on the gRPC transport, each in its own JVM, both up for the whole run. For each API:
 * <ol>
 *   <li>a check that both answer every operation (and list as many sensors);</li>
 *   <li>bytes on the wire: a second client through a {@link CountingProxy}, its connection and first
 *       call counted apart, then per operation {@value RestGrpcConfig#BYTE_WARMUP_CALLS} calls
 *       uncounted and {@code byteCalls} counted;</li>
 *   <li>latency: a client straight to the agent (no relay), warmed up on each operation, then
 *       {@code reps} timed repetitions of back-to-back calls for {@code duration}, every call's
 *       time into an HdrHistogram; the repetitions are interleaved over operations and APIs, the
 *       API that goes first alternating.</li>
 * </ol>
 */
public final class RestGrpcRunner {

    private static final long HISTOGRAM_MAX_NANOS = 60_000_000_000L;

    private final RestGrpcConfig config;
    private final PrintStream console;
    private final List<String> errors = new ArrayList<>();

    public RestGrpcRunner(RestGrpcConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    public RestGrpcResult run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        Files.createDirectories(config.out());
        console.printf(Locale.ROOT, "rest-grpc: %s over REST/JSON and gRPC, roughly %.0f s plus starting two agents;"
                + " results in %s%n", config.operations().stream().map(Operation::id).toList(),
                config.estimateSeconds(), config.out());
        Map<Api, ServerProcess> agents = new EnumMap<>(Api.class);
        List<RestGrpcResult.Latency> latencies = new ArrayList<>();
        List<RestGrpcResult.Bytes> bytes = new ArrayList<>();
        List<RestGrpcResult.Connection> connections = new ArrayList<>();
        List<RestGrpcResult.Size> sizes = new ArrayList<>();
        Map<Api, ApiClient> clients = new EnumMap<>(Api.class);
        try {
            for (Api api : Api.values()) {
                ServerProcess agent = ServerProcess.start(List.of("agent", api.transport(),
                        Integer.toString(config.dummySensors())), config.out().resolve("server-" + api.transport() + ".log"));
                agents.put(api, agent);
                console.println("agent " + agent + " started (" + api.title() + ")");
            }
            for (Api api : Api.values()) {
                clients.put(api, client(api).apply(agents.get(api).port()));
            }
            check(clients, sizes);
            for (Api api : Api.values()) {
                countBytes(api, agents.get(api).port(), bytes, connections);
            }
            for (Operation op : config.operations()) {
                for (Api api : Api.values()) {
                    timed(clients.get(api), api, op, config.warmup(), 0);
                }
            }
            for (int rep = 1; rep <= config.reps(); rep++) {
                for (Operation op : config.operations()) {
                    List<Api> order = rep % 2 == 1 ? List.of(Api.REST, Api.GRPC) : List.of(Api.GRPC, Api.REST);
                    for (Api api : order) {
                        RestGrpcResult.Latency l = timed(clients.get(api), api, op, config.duration(), rep);
                        if (l != null) {
                            latencies.add(l);
                            console.printf(Locale.ROOT, "  rep %d  %-8s %-9s %7d calls  p50 %8.1f us  p99 %8.1f us%n",
                                    rep, op.id(), api.title(), l.calls(), l.p50(), l.p99());
                        }
                    }
                }
            }
        } finally {
            clients.values().forEach(ApiClient::close);
            agents.values().forEach(ServerProcess::close);
        }
        return new RestGrpcResult(config, latencies, bytes, connections, sizes, List.copyOf(errors), started,
                Instant.now());
    }

    private static IntFunction<ApiClient> client(Api api) {
        return api == Api.REST ? RestClient::new : GrpcClient::new;
    }

    /** Every operation once on each API; the two agents must list the same number of sensors. */
    private void check(Map<Api, ApiClient> clients, List<RestGrpcResult.Size> sizes) throws IOException {
        for (Operation op : config.operations()) {
            Map<Api, Integer> got = new EnumMap<>(Api.class);
            for (Api api : Api.values()) {
                try {
                    got.put(api, clients.get(api).call(op));
                } catch (Exception e) {
                    throw new IOException(api.title() + " failed " + op.title() + ": " + describe(e), e);
                }
                sizes.add(new RestGrpcResult.Size(api, op, got.get(api)));
            }
            if (op == Operation.LIST && !got.get(Api.REST).equals(got.get(Api.GRPC))) {
                throw new IOException("the agents list different sensors: " + got.get(Api.REST) + " over REST, "
                        + got.get(Api.GRPC) + " over gRPC");
            }
        }
    }

    private void countBytes(Api api, int agentPort, List<RestGrpcResult.Bytes> bytes,
                            List<RestGrpcResult.Connection> connections) throws IOException {
        try (CountingProxy relay = new CountingProxy(agentPort);
             ApiClient client = client(api).apply(relay.port())) {
            call(client, api, Operation.LIST);
            connections.add(new RestGrpcResult.Connection(api, relay.up(), relay.down()));
            for (Operation op : config.operations()) {
                for (int i = 0; i < RestGrpcConfig.BYTE_WARMUP_CALLS; i++) {
                    call(client, api, op);
                }
                long up0 = relay.up();
                long down0 = relay.down();
                for (int i = 0; i < config.byteCalls(); i++) {
                    call(client, api, op);
                }
                double n = config.byteCalls();
                RestGrpcResult.Bytes b = new RestGrpcResult.Bytes(api, op, config.byteCalls(),
                        (relay.up() - up0) / n, (relay.down() - down0) / n);
                bytes.add(b);
                console.printf(Locale.ROOT, "  bytes  %-8s %-9s request %7.1f B  response %8.1f B%n", op.id(),
                        api.title(), b.request(), b.response());
            }
        }
    }

    private static void call(ApiClient client, Api api, Operation op) throws IOException {
        try {
            client.call(op);
        } catch (Exception e) {
            throw new IOException(api.title() + " failed " + op.title() + ": " + describe(e), e);
        }
    }

    /** Calls back to back for {@code length}; null (and an error noted) if a call fails. */
    private RestGrpcResult.Latency timed(ApiClient client, Api api, Operation op, Duration length, int rep) {
        Histogram h = new Histogram(HISTOGRAM_MAX_NANOS, 3);
        long end = System.nanoTime() + length.toNanos();
        long now;
        do {
            long t0 = System.nanoTime();
            try {
                client.call(op);
            } catch (Exception e) {
                errors.add((rep == 0 ? "warm-up" : "rep " + rep) + " " + api.title() + " " + op.id() + ": "
                        + describe(e));
                return null;
            }
            now = System.nanoTime();
            h.recordValue(Math.min(now - t0, HISTOGRAM_MAX_NANOS));
        } while (now < end);
        return new RestGrpcResult.Latency(api, op, rep, h.getTotalCount(), h.getMean() / 1000,
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
