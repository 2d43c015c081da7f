package org.salgate.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;
import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.Plan;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.SampleRow;
import org.salgate.bench.sample.ResourceSample;

class ReportWriterTest {

    /** A made-up run: "fast" is twice the baseline's rates and uses half its time and resources. */
    static RunOutcome syntheticRun(Path out) {
        return syntheticRun(out, List.of(1, 10));
    }

    static RunOutcome syntheticRun(Path out, List<Integer> counts) {
        List<CellResult> cells = new ArrayList<>();
        List<SampleRow> samples = new ArrayList<>();
        for (String t : List.of("rmi", "fast")) {
            double f = t.equals("fast") ? 2 : 1;
            for (Method m : EnumSet.of(Method.RTT, Method.TP, Method.STREAM, Method.RESOURCE_SYNC, Method.RESOURCE_ASYNC)) {
                for (int n : counts) {
                    for (String type : Plan.dataTypes(m, false)) {
                        for (int rep = 1; rep <= 3; rep++) {
                            CellKey k = new CellKey(Level.TRANSPORT, t, m, type, n);
                            Map<String, Double> v = new LinkedHashMap<>();
                            double jitter = 1 + 0.01 * rep;
                            v.put(Metrics.MEAN_US, 100 * n / f * jitter);
                            v.put(Metrics.P99_US, 300 * n / f * jitter);
                            v.put(Metrics.CALLS_PER_S, 1000 * f * jitter);
                            v.put(Metrics.MSGS_PER_S, 5000 * f * jitter);
                            v.put(Metrics.MB_PER_S, 100 * f * jitter);
                            v.put(Metrics.LOST, 0.0);
                            v.put(Metrics.CPU_PCT, 80 / f * jitter);
                            v.put(Metrics.RSS_MB, 400 / f * jitter);
                            cells.add(new CellResult(k, rep, v, t.equals("fast") && rep == 2 && n == 10
                                    ? "one, with a comma" : null));
                            if (m == Method.RESOURCE_SYNC) {
                                samples.add(new SampleRow(k, rep, new ResourceSample(500, 80 / f, 400_000_000L)));
                            }
                        }
                    }
                }
            }
        }
        RunConfig c = RunConfig.builder().transports(List.of("fast")).baseline("rmi").clients(counts)
                .out(out).build();
        return new RunOutcome(c, new ResultSet(cells), samples, List.of("a note"), Instant.EPOCH, Instant.now());
    }

    @Test
    void reportFilesAreWrittenAndParseBack(@TempDir Path dir) throws Exception {
        RunOutcome run = syntheticRun(dir);
        Path md = ReportWriter.write(run, MachineInfo.current(), true);

        List<CellResult> back = CsvFiles.readResults(dir.resolve(CsvFiles.RESULTS));
        assertEquals(run.results().all().size(), back.size());
        for (int i = 0; i < back.size(); i++) {
            assertEquals(run.results().all().get(i), back.get(i));
        }
        assertTrue(Files.readAllLines(dir.resolve(CsvFiles.SAMPLES)).size() > 1);

        JsonNode json = JsonSummary.read(dir.resolve(JsonSummary.FILE));
        assertEquals("rmi", json.path("run").path("baseline").asText());
        JsonNode fast = json.path("scores").get(0);
        assertEquals("fast", fast.path("transport").asText());
        // twice as good on every axis: 200 % everywhere, scalability 100 % (both scale alike)
        assertEquals(200.0, fast.path("transferRate").path("total").asDouble(), 1e-6);
        assertEquals(200.0, fast.path("resourceUsage").path("total").asDouble(), 1e-6);
        assertEquals(100.0, fast.path("scalability").path("total").asDouble(), 1e-6);
        assertEquals(0.5 * 200 + 0.2 * 200 + 0.3 * 100, fast.path("final").asDouble(), 1e-6);
        assertTrue(json.path("machine").path("cores").asInt() > 0);
        assertTrue(json.path("cells").size() > 0);

        String report = Files.readString(md);
        assertTrue(report.contains("Table IV") && report.contains("170.00 %"), report);
        assertTrue(report.contains("shared") || report.contains("same machine"));
        assertTrue(report.contains("-Xms512m -Xmx512m"));
        assertTrue(report.contains("one, with a comma"));

        try (var pngs = Files.list(dir.resolve(ReportWriter.CHARTS))) {
            List<Path> files = pngs.toList();
            assertEquals(7, files.size(), files.toString());
            for (Path p : files) {
                assertTrue(p.toString().endsWith(".png"));
                assertTrue(Files.size(p) > 1000, p + " is too small to be a chart");
                byte[] head = Files.readAllBytes(p);
                assertEquals((byte) 0x89, head[0]);
                assertEquals('P', head[1]);
            }
        }
    }

    @Test
    void scoreCommandRescoresASavedRunAgainstAnotherBaseline(@TempDir Path dir) throws Exception {
        ReportWriter.write(syntheticRun(dir), MachineInfo.current(), true);
        int code = BenchCommand.commandLine().execute("score", dir.toString(), "--baseline", "fast");
        assertEquals(0, code);
        JsonNode json = JsonSummary.read(dir.resolve(JsonSummary.FILE));
        assertEquals("fast", json.path("run").path("baseline").asText());
        assertEquals("rmi", json.path("scores").get(0).path("transport").asText());
        assertEquals(50.0, json.path("scores").get(0).path("transferRate").path("total").asDouble(), 1e-6);
    }

    @Test
    void singleClientCountHasNoScalabilityButStillReports(@TempDir Path dir) throws Exception {
        Path md = ReportWriter.write(syntheticRun(dir, List.of(3)), MachineInfo.current(), true);
        JsonNode fast = JsonSummary.read(dir.resolve(JsonSummary.FILE)).path("scores").get(0);
        assertTrue(fast.path("scalability").path("total").isNull());
        assertTrue(fast.path("final").isNull());
        assertEquals(200.0, fast.path("transferRate").path("total").asDouble(), 1e-6);
        assertTrue(Files.readString(md).contains("n/a"));
    }

    @Test
    void scoreCommandRejectsAFolderWithoutResults(@TempDir Path dir) {
        assertEquals(1, BenchCommand.commandLine().execute("score", dir.toString()));
    }

    @Test
    void malformedResultsLineIsNamed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("results.csv");
        Files.writeString(f, CsvFiles.RESULTS_HEADER + "\ntransport,rmi,rtt,Integer,notanumber,1,mean_us,1.0,\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> CsvFiles.readResults(f));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertFalse(e.getMessage().isBlank());
    }
}
