package org.salgate.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Panel;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.Security;
import org.salgate.bench.run.Stat;
import org.salgate.bench.score.MethodRatio;
import org.salgate.bench.score.ScoreCard;
import org.salgate.bench.server.ServerProcess;

/** The machine-readable summary of a run ({@code summary.json}); unmeasurable values are null. */
public final class JsonSummary {

    public static final String FILE = "summary.json";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonSummary() {}

    public static void write(Path file, RunOutcome run, MachineInfo machine, List<ScoreCard> scores,
                             Map<Panel, Map<String, MethodRatio>> ratios, List<Ceiling.Row> ceiling) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", config(run));
        root.put("machine", machine.asMap());
        root.put("cells", cells(run));
        List<Object> s = new ArrayList<>();
        for (ScoreCard c : scores) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("transport", c.name());
            m.put("rtt", num(c.rtt()));
            m.put("tp", num(c.tp()));
            m.put("transferRate", map("syncRatio", num(c.tr().syncRatio()), "asyncRatio", num(c.tr().asyncRatio()),
                    "total", num(c.tr().total())));
            m.put("resourceUsage", map("cpuSync", num(c.ru().cpuSync()), "memSync", num(c.ru().memSync()),
                    "cpuAsync", num(c.ru().cpuAsync()), "memAsync", num(c.ru().memAsync()), "total", num(c.ru().total())));
            m.put("scalability", map("trSync", num(c.sc().trSync()), "trAsync", num(c.sc().trAsync()),
                    "ruSync", num(c.sc().ruSync()), "ruAsync", num(c.sc().ruAsync()), "total", num(c.sc().total())));
            m.put("final", num(c.fin().total()));
            s.add(m);
        }
        root.put("scores", s);
        Map<String, Object> r = new LinkedHashMap<>();
        ratios.forEach((panel, byT) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("title", panel.title());
            p.put("method", panel.method().id());
            p.put("metric", panel.metric());
            Map<String, Object> ts = new LinkedHashMap<>();
            byT.forEach((t, mr) -> {
                Map<String, Object> x = new LinkedHashMap<>();
                Map<String, Object> per = new LinkedHashMap<>();
                mr.perClients().forEach((c, v) -> per.put(c.toString(), num(v)));
                x.put("perClients", per);
                x.put("mean", num(mr.mean()));
                x.put("scalability", num(mr.scalability()));
                ts.put(t, x);
            });
            p.put("transports", ts);
            r.put(panel.id(), p);
        });
        root.put("ratios", r);
        List<Object> ce = new ArrayList<>();
        for (Ceiling.Row row : ceiling) {
            Map<String, Object> m = cell(row.transport(), row.method().id(), row.dataType(), row.clients(), row.metric());
            m.put("value", num(row.transportValue()));
            m.put("ceiling", num(row.ceilingValue()));
            m.put("percentOfCeiling", num(row.percent()));
            ce.add(m);
        }
        root.put("ceiling", ce);
        List<Object> cost = new ArrayList<>();
        for (TlsCost.Row row : TlsCost.rows(run.results(), run.config().level())) {
            Map<String, Object> m = cell(row.transport(), row.method().id(), row.dataType(), row.clients(), row.metric());
            m.put("plain", stat(row.plain()));
            m.put("tls", stat(row.tls()));
            m.put("tlsOverPlain", num(row.ratio()));
            cost.add(m);
        }
        root.put("tlsCost", cost);
        root.put("notes", run.notes());
        MAPPER.writeValue(file.toFile(), root);
    }

    /** The fields that name a cell of the sweep, in the order every table lists them. */
    private static Map<String, Object> cell(String transport, String method, String type, int clients,
                                            String metric) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("transport", transport);
        m.put("method", method);
        m.put("type", type);
        m.put("clients", clients);
        m.put("metric", metric);
        return m;
    }

    private static Map<String, Object> config(RunOutcome run) {
        RunConfig c = run.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("started", String.valueOf(run.started()));
        m.put("finished", String.valueOf(run.finished()));
        m.put("level", c.level().name().toLowerCase(Locale.ROOT));
        m.put("baseline", c.baseline());
        m.put("security", c.security().stream().map(Security::id).toList());
        m.put("transports", c.transports());
        m.put("clients", c.clients());
        m.put("methods", c.methods().stream().map(Method::id).sorted().toList());
        m.put("reps", c.reps());
        m.put("rttCalls", c.rttCalls());
        m.put("rttWarmupCalls", c.rttWarmupCalls());
        m.put("tpMillis", c.tpDuration().toMillis());
        m.put("streamMillis", c.streamDuration().toMillis());
        m.put("resourceMillis", c.resourceDuration().toMillis());
        m.put("agentMillis", c.agentDuration().toMillis());
        m.put("streamSettleMillis", c.streamSettle().toMillis());
        m.put("serverWarmupMillis", c.serverWarmup().toMillis());
        m.put("ratePerClient", c.ratePerClient());
        m.put("limits", c.limits());
        m.put("dummySensors", c.dummySensors());
        m.put("quick", c.quick());
        m.put("serverJvmFlags", ServerProcess.JVM_FLAGS);
        m.put("client", "raw TransportClient per client (org.salgate.bench.workload.TransportChannel), in the bench JVM");
        return m;
    }

    private static List<Object> cells(RunOutcome run) {
        List<Object> out = new ArrayList<>();
        for (CellKey k : run.results().keys()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("transport", k.transport());
            m.put("method", k.method().id());
            m.put("type", k.dataType());
            m.put("clients", k.clients());
            Map<String, Object> metrics = new LinkedHashMap<>();
            for (String name : run.results().metrics(k)) {
                Stat st = run.results().stat(k, name);
                metrics.put(name, stat(st));
            }
            m.put("metrics", metrics);
            List<String> errors = run.results().all().stream().filter(x -> x.key().equals(k) && x.error() != null)
                    .map(x -> "rep " + x.rep() + ": " + x.error()).toList();
            m.put("errors", errors);
            out.add(m);
        }
        return out;
    }

    private static Map<String, Object> stat(Stat st) {
        return map("median", num(st.median()), "min", num(st.min()), "max", num(st.max()), "reps", st.n());
    }

    /** Like Map.of, in order, but takes null values (unmeasurable numbers). */
    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Object num(double v) {
        return Double.isFinite(v) ? (Object) v : null;
    }

    /** Reads a summary back as a tree. */
    public static JsonNode read(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    /**
     * Rebuilds the configuration of a saved run, for re-scoring; the output folder is the run's own.
     *
     * @throws IOException if the summary lacks the run section
     */
    public static RunConfig config(JsonNode summary, Path dir, String baselineOverride) throws IOException {
        JsonNode r = summary.get("run");
        if (r == null) {
            throw new IOException(dir.resolve(FILE) + " has no \"run\" section; was it written by the bench?");
        }
        List<String> transports = new ArrayList<>();
        r.path("transports").forEach(n -> transports.add(n.asText()));
        List<Integer> clients = new ArrayList<>();
        r.path("clients").forEach(n -> clients.add(n.asInt()));
        java.util.Set<Method> methods = java.util.EnumSet.noneOf(Method.class);
        r.path("methods").forEach(n -> methods.add(Method.byId(n.asText())));
        List<Security> security = new ArrayList<>();
        r.path("security").forEach(n -> security.add(Security.parse(n.asText())));
        Level level = Level.valueOf(r.path("level").asText("transport").toUpperCase(Locale.ROOT));
        RunConfig.Builder b = RunConfig.builder();
        if (r.path("quick").asBoolean()) {
            b.quick();
        }
        return b.level(level).transports(transports)
                .baseline(baselineOverride != null ? baselineOverride : r.path("baseline").asText("rmi"))
                .clients(clients).methods(methods).reps(r.path("reps").asInt(1))
                .rttCalls(r.path("rttCalls").asInt()).rttWarmupCalls(r.path("rttWarmupCalls").asInt())
                .tpDuration(java.time.Duration.ofMillis(r.path("tpMillis").asLong()))
                .streamDuration(java.time.Duration.ofMillis(r.path("streamMillis").asLong()))
                .resourceDuration(java.time.Duration.ofMillis(r.path("resourceMillis").asLong()))
                .agentDuration(java.time.Duration.ofMillis(r.path("agentMillis").asLong()))
                .streamSettle(java.time.Duration.ofMillis(r.path("streamSettleMillis").asLong()))
                .serverWarmup(java.time.Duration.ofMillis(r.path("serverWarmupMillis").asLong()))
                .ratePerClient(r.path("ratePerClient").asDouble()).limits(r.path("limits").asBoolean())
                .dummySensors(r.path("dummySensors").asInt(20))
                .security(security.isEmpty() ? List.of(Security.PLAIN) : security).out(dir).build();
    }

    /** When the saved run started and finished. */
    public static Instant[] times(JsonNode summary) {
        JsonNode r = summary.path("run");
        return new Instant[] {parse(r.path("started").asText()), parse(r.path("finished").asText())};
    }

    private static Instant parse(String s) {
        try {
            return Instant.parse(s);
        } catch (RuntimeException e) {
            return null;
        }
    }

}
