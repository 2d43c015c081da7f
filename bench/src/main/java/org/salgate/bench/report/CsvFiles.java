package org.salgate.bench.report;

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

import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.SampleRow;

/**
 * The raw results as CSV, one metric per line ({@code results.csv}), which {@code bench score}
 * reads back, and the server's resource samples ({@code samples.csv}).
 */
public final class CsvFiles {

    public static final String RESULTS = "results.csv";
    public static final String SAMPLES = "samples.csv";
    static final String RESULTS_HEADER = "level,transport,method,type,clients,rep,metric,value,error";

    private CsvFiles() {}

    public static void writeResults(Path file, List<CellResult> results) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(RESULTS_HEADER);
            w.newLine();
            for (CellResult r : results) {
                CellKey k = r.key();
                String prefix = String.join(",", k.level().name().toLowerCase(Locale.ROOT), quote(k.transport()),
                        k.method().id(), quote(k.dataType()), Integer.toString(k.clients()), Integer.toString(r.rep()));
                String err = r.error() == null ? "" : quote(r.error());
                if (r.metrics().isEmpty()) {
                    w.write(prefix + ",,," + err);
                    w.newLine();
                }
                for (var m : r.metrics().entrySet()) {
                    w.write(prefix + "," + m.getKey() + "," + number(m.getValue()) + "," + err);
                    w.newLine();
                }
            }
        }
    }

    /**
     * Reads a results file written by {@link #writeResults}.
     *
     * @throws IOException if it cannot be read or a line is malformed (the message names the line)
     */
    public static List<CellResult> readResults(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(RESULTS_HEADER)) {
            throw new IOException(file + " is not a bench results file (its header should be: " + RESULTS_HEADER + ")");
        }
        Map<String, CellKey> keys = new LinkedHashMap<>();
        Map<String, Map<String, Double>> metrics = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, Integer> reps = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                List<String> f = split(lines.get(i));
                if (f.size() != 9) {
                    throw new IllegalArgumentException("expected 9 fields, got " + f.size());
                }
                CellKey k = new CellKey(Level.valueOf(f.get(0).toUpperCase(Locale.ROOT)), f.get(1),
                        Method.byId(f.get(2)), f.get(3), Integer.parseInt(f.get(4)));
                int rep = Integer.parseInt(f.get(5));
                String id = k + "#" + rep;
                keys.putIfAbsent(id, k);
                reps.putIfAbsent(id, rep);
                Map<String, Double> m = metrics.computeIfAbsent(id, x -> new LinkedHashMap<>());
                if (!f.get(6).isEmpty()) {
                    m.put(f.get(6), f.get(7).isEmpty() ? Double.NaN : Double.parseDouble(f.get(7)));
                }
                if (!f.get(8).isEmpty()) {
                    errors.put(id, f.get(8));
                }
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + " is malformed: " + e.getMessage(), e);
            }
        }
        List<CellResult> out = new ArrayList<>();
        for (var e : keys.entrySet()) {
            out.add(new CellResult(e.getValue(), reps.get(e.getKey()), metrics.get(e.getKey()), errors.get(e.getKey())));
        }
        return out;
    }

    public static void writeSamples(Path file, List<SampleRow> samples) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("level,transport,method,type,clients,rep,elapsed_ms,cpu_pct,rss_bytes");
            w.newLine();
            for (SampleRow s : samples) {
                CellKey k = s.key();
                w.write(String.join(",", k.level().name().toLowerCase(Locale.ROOT), quote(k.transport()),
                        k.method().id(), quote(k.dataType()), Integer.toString(k.clients()), Integer.toString(s.rep()),
                        Long.toString(s.sample().elapsedMillis()), number(s.sample().cpuPercent()),
                        Long.toString(s.sample().rssBytes())));
                w.newLine();
            }
        }
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    static String quote(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"").replace("\n", " ") + "\"";
        }
        return s;
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
