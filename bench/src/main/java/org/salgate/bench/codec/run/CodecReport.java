package org.salgate.bench.codec.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.salgate.bench.report.MachineInfo;

/** Writes a codec run's codec.csv (one row per case), codec.json (summary) and codec.md (tables). */
public final class CodecReport {

    public static final String CSV = "codec.csv";
    public static final String JSON = "codec.json";
    public static final String MARKDOWN = "codec.md";
    static final String CSV_HEADER = "codec,workload,bytes,gzip_bytes,encode_ns_median,encode_ns_min,encode_ns_max,"
            + "decode_ns_median,decode_ns_min,decode_ns_max,encode_alloc_bytes,decode_alloc_bytes,ok,error";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CodecReport() {}

    /** Writes the three files into the run's out folder; returns the markdown report. */
    public static Path write(CodecOutcome run, MachineInfo machine) throws IOException {
        Path dir = run.config().out();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(CSV), csv(run));
        MAPPER.writeValue(dir.resolve(JSON).toFile(), json(run, machine));
        Path md = dir.resolve(MARKDOWN);
        Files.writeString(md, CodecMarkdown.render(run, machine));
        return md;
    }

    static String csv(CodecOutcome run) {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (CaseResult r : run.results()) {
            b.append(String.join(",", r.codec(), r.workload(), Long.toString(r.bytes()), Long.toString(r.gzipBytes()),
                    num(r.encodeNs().median()), num(r.encodeNs().min()), num(r.encodeNs().max()),
                    num(r.decodeNs().median()), num(r.decodeNs().min()), num(r.decodeNs().max()),
                    alloc(r.encodeAllocBytes()), alloc(r.decodeAllocBytes()), Boolean.toString(r.ok()),
                    quote(r.error() == null ? "" : r.error()))).append('\n');
        }
        return b.toString();
    }

    private static Map<String, Object> json(CodecOutcome run, MachineInfo machine) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commandLine", run.config().commandLine());
        m.put("started", run.started().toString());
        m.put("finished", run.finished().toString());
        m.put("harness", Map.of("kind", CodecMarkdown.HARNESS_NOTE, "warmupMs", run.config().harness().warmup().toMillis(),
                "measureMs", run.config().harness().measure().toMillis(), "rounds", run.config().harness().rounds()));
        m.put("seed", run.config().seed());
        m.put("machine", machine.asMap());
        m.put("sharedMachine", CodecMarkdown.SHARED_NOTE);
        Map<String, String> workloads = new LinkedHashMap<>();
        run.workloads().forEach(w -> workloads.put(w.name(), w.detail()));
        m.put("workloads", workloads);
        List<Object> cases = new ArrayList<>();
        for (CaseResult r : run.results()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("codec", r.codec());
            c.put("workload", r.workload());
            c.put("bytes", r.bytes());
            c.put("gzipBytes", r.gzipBytes());
            c.put("encodeNs", spread(r.encodeNs()));
            c.put("decodeNs", spread(r.decodeNs()));
            c.put("encodeAllocBytes", r.encodeAllocBytes() < 0 ? "n/a" : r.encodeAllocBytes());
            c.put("decodeAllocBytes", r.decodeAllocBytes() < 0 ? "n/a" : r.decodeAllocBytes());
            c.put("ok", r.ok());
            if (!r.ok()) {
                c.put("error", r.error());
            }
            cases.add(c);
        }
        m.put("cases", cases);
        m.put("skipped", run.skipped());
        m.put("failed", run.failures().size());
        return m;
    }

    private static Object spread(Spread s) {
        if (Double.isNaN(s.median())) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.median());
        m.put("min", s.min());
        m.put("max", s.max());
        return m;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String alloc(double v) {
        return v < 0 || Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String quote(String s) {
        return s.isEmpty() ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
