package org.salgate.bench.restgrpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.restgrpc.RestGrpcResult.Api;
import org.salgate.bench.restgrpc.RestGrpcResult.Latency;
import org.salgate.bench.run.Stat;
import org.salgate.bench.server.ServerProcess;

/** Writes a {@code bench rest-grpc} run as {@code rest-grpc.json} and {@code rest-grpc.md}. */
public final class RestGrpcReport {

    public static final String JSON = "rest-grpc.json";
    public static final String MARKDOWN = "rest-grpc.md";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The latency figures, by name, as they go into the summaries. */
    private static final Map<String, ToDoubleFunction<Latency>> FIGURES = new LinkedHashMap<>();

    static {
        FIGURES.put("mean", Latency::mean);
        FIGURES.put("p50", Latency::p50);
        FIGURES.put("p90", Latency::p90);
        FIGURES.put("p99", Latency::p99);
        FIGURES.put("max", Latency::max);
        FIGURES.put("calls", l -> l.calls());
    }

    private RestGrpcReport() {}

    /** Writes both files into the run's folder and returns the Markdown file. */
    public static Path write(RestGrpcResult r, MachineInfo machine) throws IOException {
        Path dir = r.config().out();
        Files.createDirectories(dir);
        MAPPER.writeValue(dir.resolve(JSON).toFile(), json(r, machine));
        Path md = dir.resolve(MARKDOWN);
        Files.writeString(md, markdown(r, machine), StandardCharsets.UTF_8);
        return md;
    }

    /** A latency figure of one API and operation over the repetitions. */
    static Stat stat(RestGrpcResult r, Api api, Operation op, String figure) {
        ToDoubleFunction<Latency> f = FIGURES.get(figure);
        return Stat.of(r.latencies().stream().filter(l -> l.api() == api && l.op() == op)
                .map(l -> f.applyAsDouble(l)).toList());
    }

    static Map<String, Object> json(RestGrpcResult r, MachineInfo machine) {
        RestGrpcConfig c = r.config();
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", String.valueOf(r.started()));
        run.put("finished", String.valueOf(r.finished()));
        run.put("command", c.commandLine());
        run.put("operations", c.operations().stream().map(Operation::id).toList());
        run.put("reps", c.reps());
        run.put("durationMillis", c.duration().toMillis());
        run.put("warmupMillis", c.warmup().toMillis());
        run.put("byteCalls", c.byteCalls());
        run.put("byteWarmupCalls", RestGrpcConfig.BYTE_WARMUP_CALLS);
        run.put("dummySensors", c.dummySensors());
        run.put("quick", c.quick());
        run.put("serverJvmFlags", ServerProcess.JVM_FLAGS);
        Map<String, Object> apis = new LinkedHashMap<>();
        for (Api api : Api.values()) {
            apis.put(api.name().toLowerCase(Locale.ROOT), Map.of("title", api.title(), "client", api.how(),
                    "agentTransport", api.transport()));
        }
        run.put("apis", apis);
        root.put("run", run);
        root.put("machine", machine.asMap());
        List<Object> ops = new ArrayList<>();
        for (Operation op : c.operations()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("operation", op.id());
            o.put("title", op.title());
            for (Api api : Api.values()) {
                Map<String, Object> a = new LinkedHashMap<>();
                Map<String, Object> lat = new LinkedHashMap<>();
                for (String figure : FIGURES.keySet()) {
                    Stat st = stat(r, api, op, figure);
                    lat.put(figure.equals("calls") ? "callsPerRep" : figure + "Micros", map("median", num(st.median()),
                            "min", num(st.min()), "max", num(st.max()), "reps", st.n()));
                }
                a.put("latency", lat);
                r.bytes().stream().filter(b -> b.api() == api && b.op() == op).findFirst().ifPresent(b -> {
                    a.put("requestBytesPerCall", b.request());
                    a.put("responseBytesPerCall", b.response());
                    a.put("bytesPerCall", b.request() + b.response());
                    a.put("byteCalls", b.calls());
                });
                r.sizes().stream().filter(s -> s.api() == api && s.op() == op).findFirst()
                        .ifPresent(s -> a.put("answerSize", s.size()));
                o.put(api.name().toLowerCase(Locale.ROOT), a);
            }
            o.put("grpcOverRestP50", num(ratio(r, op, "p50")));
            o.put("grpcOverRestBytes", num(byteRatio(r, op)));
            ops.add(o);
        }
        root.put("operations", ops);
        Map<String, Object> conn = new LinkedHashMap<>();
        r.connections().forEach(x -> conn.put(x.api().name().toLowerCase(Locale.ROOT),
                map("upBytes", x.up(), "downBytes", x.down())));
        root.put("connectionAndFirstList", conn);
        List<Object> reps = new ArrayList<>();
        for (Latency l : r.latencies()) {
            reps.add(map("api", l.api().name().toLowerCase(Locale.ROOT), "operation", l.op().id(), "rep", l.rep(),
                    "calls", l.calls(), "meanMicros", l.mean(), "p50Micros", l.p50(), "p90Micros", l.p90(),
                    "p99Micros", l.p99(), "maxMicros", l.max()));
        }
        root.put("repetitions", reps);
        root.put("errors", r.errors());
        return root;
    }

    /** gRPC's median of a figure over REST's. */
    static double ratio(RestGrpcResult r, Operation op, String figure) {
        return stat(r, Api.GRPC, op, figure).median() / stat(r, Api.REST, op, figure).median();
    }

    /** gRPC's bytes per call over REST's. */
    static double byteRatio(RestGrpcResult r, Operation op) {
        double[] total = new double[2];
        r.bytes().stream().filter(b -> b.op() == op)
                .forEach(b -> total[b.api().ordinal()] = b.request() + b.response());
        return total[Api.GRPC.ordinal()] / total[Api.REST.ordinal()];
    }

    static String markdown(RestGrpcResult r, MachineInfo machine) {
        RestGrpcConfig c = r.config();
        StringBuilder s = new StringBuilder("# salgate bench: REST/JSON against gRPC (seed 001)\n\n");
        s.append("- Run: ").append(r.started()).append(" to ").append(r.finished()).append('\n');
        s.append("- Command: `").append(c.commandLine()).append("`\n");
        s.append("- Machine: ").append(machine.describe()).append('\n');
        s.append("- The client (the bench JVM) and the two agents (a JVM each, flags `")
                .append(String.join(" ", ServerProcess.JVM_FLAGS))
                .append("`) shared this machine's cores over loopback; both agents ran for the whole run.\n");
        s.append("- Agents: the real agent with ").append(c.dummySensors())
                .append(" dummy sensors and the OS sensors, one on the HTTP transport (REST/JSON API), one on the gRPC")
                .append(" transport (typed `Sal` service); plain text, no tokens.\n");
        for (Api api : Api.values()) {
            s.append("- ").append(api.title()).append(" client: ").append(api.how()).append(".\n");
        }
        s.append("- Operations: ");
        List<String> ops = new ArrayList<>();
        for (Operation op : c.operations()) {
            ops.add(op.id() + " (" + op.title() + ": " + rest(op) + " / " + grpc(op) + ")");
        }
        s.append(String.join("; ", ops)).append(".\n");
        s.append(String.format(Locale.ROOT, "- Latency: one client, calls back to back on one kept-open connection; "
                        + "each operation and API warmed up for %d ms, then %d repetitions of %d ms, interleaved, every "
                        + "call timed into an HdrHistogram. Median over the repetitions, [min-max].%s%n",
                c.warmup().toMillis(), c.reps(), c.duration().toMillis(),
                c.quick() ? " **Quick profile: smoke-test durations, not for conclusions.**" : ""));
        s.append(String.format(Locale.ROOT, "- Bytes: a second client through a counting TCP relay in the bench "
                + "(TCP payload each way, every header and frame included); per operation %d calls uncounted, then "
                + "the mean of %d counted calls. The latency clients do not go through the relay.%n",
                RestGrpcConfig.BYTE_WARMUP_CALLS, c.byteCalls()));

        s.append("\n## End-to-end latency, 1 client (microseconds)\n\n")
                .append("| operation | API | calls per rep | mean | p50 | p90 | p99 | gRPC/REST (p50) |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Operation op : c.operations()) {
            for (Api api : Api.values()) {
                s.append("| ").append(op.id()).append(" | ").append(api.title()).append(" | ")
                        .append(String.format(Locale.ROOT, "%.0f", stat(r, api, op, "calls").median()))
                        .append(" | ").append(fmt(stat(r, api, op, "mean")))
                        .append(" | ").append(fmt(stat(r, api, op, "p50"))).append(" | ")
                        .append(fmt(stat(r, api, op, "p90"))).append(" | ").append(fmt(stat(r, api, op, "p99")))
                        .append(" | ").append(api == Api.GRPC ? two(ratio(r, op, "p50")) : "").append(" |\n");
            }
        }
        s.append("\n## Bytes on the wire per call\n\n")
                .append("| operation | API | request | response | total | gRPC/REST |\n")
                .append("|---|---|---:|---:|---:|---:|\n");
        for (Operation op : c.operations()) {
            for (Api api : Api.values()) {
                r.bytes().stream().filter(b -> b.api() == api && b.op() == op).findFirst().ifPresent(b -> s
                        .append("| ").append(op.id()).append(" | ").append(api.title()).append(" | ")
                        .append(one(b.request())).append(" | ").append(one(b.response())).append(" | ")
                        .append(one(b.request() + b.response())).append(" | ")
                        .append(api == Api.GRPC ? two(byteRatio(r, op)) : "").append(" |\n"));
            }
        }
        if (!r.connections().isEmpty()) {
            s.append("\nOpening the connection and the first sensor list, counted apart (bytes up / down): ");
            List<String> parts = new ArrayList<>();
            r.connections().forEach(x -> parts.add(x.api().title() + " " + x.up() + " / " + x.down()));
            s.append(String.join(", ", parts)).append(".\n");
        }
        if (!r.sizes().isEmpty()) {
            s.append("\nWhat the answers held (checked before measuring): ");
            List<String> parts = new ArrayList<>();
            r.sizes().forEach(x -> parts.add(x.op().id() + " " + x.api().title() + " " + x.size()
                    + (x.op() == Operation.LIST ? " sensors" : x.op() == Operation.READ ? " reading" : " characters")));
            s.append(String.join(", ", parts)).append(".\n");
        }
        s.append("\n## What seed 001 measured\n\n")
                .append("The gRPC team pinged a server for 60 s from an Android phone with one message (a payload ")
                .append("of 100 B to 100 KB echoed back), gRPC unary calls against a RESTful HTTP JSON POST ")
                .append("(HttpURLConnection and OkHttp). It reports gRPC 5x-10x faster up to the 95th percentile, ")
                .append("about 2 ms per request on average, and about 3x less bandwidth for small payloads, 2x for ")
                .append("large. Here the client is a JVM on the same machine as the server, over loopback, and the ")
                .append("payloads are the agent's own answers, so the figures are not comparable one for one; the ")
                .append("ratios are what to set side by side.\n");
        if (!r.errors().isEmpty()) {
            s.append("\n## Problems\n\n");
            r.errors().forEach(e -> s.append("- ").append(e).append('\n'));
        }
        return s.toString();
    }

    private static String rest(Operation op) {
        return switch (op) {
            case LIST -> "`GET /api/sensors`";
            case READ -> "`POST /api/sensors/" + Operation.SENSOR + "/commands/" + Operation.COMMAND + "`";
            case DESCRIBE -> "`GET /api/sensors/" + Operation.SENSOR + "` with `Accept: application/xml`";
        };
    }

    private static String grpc(Operation op) {
        return switch (op) {
            case LIST -> "`Sal/ListSensors`";
            case READ -> "`Sal/Execute`";
            case DESCRIBE -> "`Sal/DescribeSensor`";
        };
    }

    private static String fmt(Stat st) {
        if (st.n() == 0) {
            return "n/a";
        }
        String m = one(st.median());
        return st.n() > 1 ? m + " [" + one(st.min()) + "-" + one(st.max()) + "]" : m;
    }

    private static String one(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String two(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "n/a";
    }

    private static Object num(double v) {
        return Double.isFinite(v) ? (Object) v : null;
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
