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
import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.Plan;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.Security;

class TlsCostTest {

    /**
     * A made-up plain+TLS run: "fast" is twice the baseline, and each transport over TLS takes 1.5
     * times as long per call and streams at 0.8 times the rate, whatever the repetition.
     */
    private static RunOutcome plainAndTlsRun(Path out) {
        List<CellResult> cells = new ArrayList<>();
        for (String t : List.of("rmi", "rmi+tls", "fast", "fast+tls")) {
            double f = t.startsWith("fast") ? 2 : 1;
            boolean tls = Security.of(t) == Security.TLS;
            for (Method m : EnumSet.of(Method.RTT, Method.TP, Method.STREAM, Method.RESOURCE_SYNC, Method.RESOURCE_ASYNC)) {
                for (int n : List.of(1, 100)) {
                    for (String type : Plan.dataTypes(m, false)) {
                        for (int rep = 1; rep <= 3; rep++) {
                            double jitter = 1 + 0.01 * rep;
                            Map<String, Double> v = new LinkedHashMap<>();
                            v.put(Metrics.MEAN_US, 100 * n / f * jitter * (tls ? 1.5 : 1));
                            v.put(Metrics.CALLS_PER_S, 1000 * f * jitter);
                            v.put(Metrics.MSGS_PER_S, 5000 * f * jitter * (tls ? 0.8 : 1));
                            v.put(Metrics.MB_PER_S, 100 * f * jitter * (tls ? 0.8 : 1));
                            v.put(Metrics.CPU_PCT, 80 / f * jitter);
                            v.put(Metrics.RSS_MB, 400 / f * jitter);
                            cells.add(new CellResult(new CellKey(Level.TRANSPORT, t, m, type, n), rep, v, null));
                        }
                    }
                }
            }
        }
        RunConfig c = RunConfig.builder().transports(List.of("fast")).baseline("rmi").clients(List.of(1, 100))
                .security(List.of(Security.PLAIN, Security.TLS)).out(out).build();
        return new RunOutcome(c, new ResultSet(cells), List.of(), List.of(), Instant.EPOCH, Instant.now());
    }

    @Test
    void eachTransportsTlsCellsAreSetAgainstItsPlainCells() {
        List<TlsCost.Row> rows = TlsCost.rows(plainAndTlsRun(Path.of("unused")).results(), Level.TRANSPORT);
        // rmi and fast: RTT of three types at 1 client, 80 KB streaming at 1 and at 100 clients
        assertEquals(10, rows.size(), rows.toString());
        for (TlsCost.Row r : rows) {
            assertFalse(r.transport().endsWith("+tls"), r.toString());
            if (r.method() == Method.RTT) {
                assertEquals(1, r.clients());
                assertEquals(Metrics.MEAN_US, r.metric());
                assertEquals(1.5, r.ratio(), 1e-9, r.toString());
            } else {
                assertEquals(Method.STREAM, r.method());
                assertEquals("80 KB", r.dataType());
                assertEquals(0.8, r.ratio(), 1e-9, r.toString());
                assertEquals(3, r.plain().n());
                assertTrue(r.plain().min() < r.plain().max());
            }
        }
        assertEquals(List.of(1, 100), rows.stream().filter(r -> r.transport().equals("fast")
                && r.method() == Method.STREAM).map(TlsCost.Row::clients).toList());
    }

    @Test
    void reportScoresThePlainCellsAndShowsTheCostOfTls(@TempDir Path dir) throws Exception {
        Path md = ReportWriter.write(plainAndTlsRun(dir), MachineInfo.current(), true);

        JsonNode json = JsonSummary.read(dir.resolve(JsonSummary.FILE));
        JsonNode scores = json.path("scores");
        assertEquals(1, scores.size(), scores.toString());
        assertEquals("fast", scores.get(0).path("transport").asText());
        assertEquals(200.0, scores.get(0).path("transferRate").path("total").asDouble(), 1e-6);
        assertEquals(List.of("plain", "tls"), List.of(json.path("run").path("security").get(0).asText(),
                json.path("run").path("security").get(1).asText()));
        JsonNode cost = json.path("tlsCost");
        assertEquals(10, cost.size());
        JsonNode first = cost.get(0);
        assertEquals("rmi", first.path("transport").asText());
        assertEquals("rtt", first.path("method").asText());
        assertEquals(1.5, first.path("tlsOverPlain").asDouble(), 1e-9);
        assertEquals(101.0 * 1.5, first.path("tls").path("min").asDouble(), 1e-9);
        assertEquals(103.0 * 1.5, first.path("tls").path("max").asDouble(), 1e-9);

        String report = Files.readString(md);
        assertTrue(report.contains("## Cost of TLS"), report);
        assertTrue(report.contains("| fast | stream | 80 KB | 100 | mb_per_s | 204 [202-206] | 163 [162-165] | 0.80 |"),
                report);
        for (JsonNode panel : json.path("ratios")) {
            assertEquals(List.of("fast"), iterable(panel.path("transports").fieldNames()),
                    "only the plain cells are scored: " + panel);
        }
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    @Test
    void aPlainOnlyRunHasNoTlsTable(@TempDir Path dir) throws Exception {
        Path md = ReportWriter.write(ReportWriterTest.syntheticRun(dir), MachineInfo.current(), true);
        assertFalse(Files.readString(md).contains("Cost of TLS"));
        assertEquals(0, JsonSummary.read(dir.resolve(JsonSummary.FILE)).path("tlsCost").size());
    }
}
