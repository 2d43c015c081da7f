package org.salgate.bench.matrix;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

/** Writes a matrix run as {@code matrix.csv} (every repetition), {@code matrix.json} and {@code matrix.md}. */
public final class MatrixReport {

    public static final String CSV = "matrix.csv";
    public static final String JSON = "matrix.json";
    public static final String MARKDOWN = "matrix.md";
    static final String CSV_HEADER = "transport,codec,rep,ms,bytes_per_call,server_cpu_pct,ok,error";
    private static final String BASE = "protobuf";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MatrixReport() {}

    /** Writes the three files into {@code config.out()} and returns the Markdown file. */
    public static Path write(MatrixConfig config, List<CellRun> runs, MachineInfo machine) throws IOException {
        Files.createDirectories(config.out());
        List<CellSummary> cells = CellSummary.of(runs);
        writeCsv(config.out().resolve(CSV), runs);
        writeJson(config.out().resolve(JSON), config, cells, machine);
        Path md = config.out().resolve(MARKDOWN);
        Files.writeString(md, MatrixMarkdown.render(config, cells, machine), StandardCharsets.UTF_8);
        return md;
    }

    private static void writeCsv(Path file, List<CellRun> runs) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER);
            w.newLine();
            for (CellRun r : runs) {
                w.write(String.join(",", r.transport(), r.codec(), Integer.toString(r.rep()), number(r.millis()),
                        number(r.bytesPerCall()), number(r.serverCpuPercent()), Boolean.toString(r.ok()),
                        r.ok() ? "" : quote(r.error())));
                w.newLine();
            }
        }
    }

    private static void writeJson(Path file, MatrixConfig config, List<CellSummary> cells, MachineInfo machine)
            throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("commandLine", config.commandLine());
        run.put("transports", config.transports());
        run.put("codecs", config.codecs());
        run.put("persons", config.persons());
        run.put("warmupCalls", config.warmupCalls());
        run.put("reps", config.reps());
        run.put("seed", config.seed());
        run.put("messageCodec", "protobuf");
        root.put("run", run);
        root.put("machine", machine.asMap());
        List<Object> list = new ArrayList<>();
        for (CellSummary c : cells) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("transport", c.transport());
            m.put("codec", c.codec());
            m.put("medianMs", num(c.medianMillis()));
            m.put("minMs", num(c.minMillis()));
            m.put("maxMs", num(c.maxMillis()));
            m.put("relativeToProtobuf", num(relative(cells, c)));
            m.put("bytesPerCall", num(c.bytesPerCall()));
            m.put("serverCpuPercent", num(c.serverCpuPercent()));
            m.put("okReps", c.ok());
            m.put("failedReps", c.failed());
            m.put("error", c.firstError());
            list.add(m);
        }
        root.put("cells", list);
        MAPPER.writeValue(file.toFile(), root);
    }

    /** A cell's median over protobuf's on the same transport; NaN when either is missing. */
    static double relative(List<CellSummary> cells, CellSummary c) {
        return cells.stream().filter(x -> x.transport().equals(c.transport()) && x.codec().equals(BASE))
                .mapToDouble(x -> c.medianMillis() / x.medianMillis()).filter(Double::isFinite).findFirst()
                .orElse(Double.NaN);
    }

    private static Double num(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"").replace("\n", " ") + "\"";
    }
}
