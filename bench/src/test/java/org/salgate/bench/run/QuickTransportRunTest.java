package org.salgate.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;
import org.salgate.bench.report.CsvFiles;
import org.salgate.bench.report.JsonSummary;
import org.salgate.bench.sample.ProcStat;
import org.salgate.transport.Transports;

/** The one slow test: a real --quick run of the transport bench over two transports, servers in child JVMs. */
class QuickTransportRunTest {

    @Test
    @Timeout(180)
    void quickRunOverTwoTransportsWritesReportsWithNumbers(@TempDir Path out) throws Exception {
        assertTrue(ProcStat.supported(), "the transport level samples the servers through Linux's /proc, which this machine lacks");
        assertTrue(Transports.available().keySet().containsAll(List.of("netty", "rmi")),
                "the bench depends on the netty and rmi transports: they must be found on its class path");
        int code = BenchCommand.commandLine().execute("transport", "--quick", "--transports", "netty",
                "--baseline", "rmi", "--clients", "2", "--rtt-calls", "50", "--rtt-warmup-calls", "20",
                "--tp-duration", "300ms", "--stream-duration", "300ms", "--resource-duration", "1100ms",
                "--warmup", "500ms", "--out", out.toString());
        assertEquals(0, code);

        for (String f : List.of("results.csv", "samples.csv", "summary.json", "report.md")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f + " is empty");
        }
        List<CellResult> cells = CsvFiles.readResults(out.resolve(CsvFiles.RESULTS));
        List<CellResult> failed = cells.stream().filter(c -> c.error() != null).toList();
        assertTrue(failed.isEmpty(), "cells failed: " + failed);
        for (CellResult c : cells) {
            double main = c.get(c.key().method().metric());
            assertTrue(main > 0, c.key() + " has no " + c.key().method().metric() + ": " + c.metrics());
            if (c.key().method() == Method.STREAM) {
                assertEquals(0.0, c.get(Metrics.LOST) + c.get(Metrics.DUPLICATED) + c.get(Metrics.REORDERED),
                        c.key() + " lost or reordered messages over TCP");
            }
            if (c.key().method().samplesServer()) {
                assertTrue(c.get(Metrics.RSS_MB) > 1, c.key() + " has no server memory");
            }
        }
        assertTrue(cells.stream().anyMatch(c -> c.key().transport().equals(CellKey.RAW)), "the ceiling was not measured");

        JsonNode json = JsonSummary.read(out.resolve(JsonSummary.FILE));
        JsonNode netty = json.path("scores").get(0);
        assertEquals("netty", netty.path("transport").asText());
        assertTrue(netty.path("transferRate").path("total").asDouble() > 0);
        assertTrue(netty.path("resourceUsage").path("total").asDouble() > 0);
        assertTrue(json.path("ceiling").size() > 0);

        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("Table I") && md.contains("Table IV") && md.contains("| netty |"), md);
        try (var charts = Files.list(out.resolve("charts"))) {
            assertEquals(7, charts.filter(p -> p.toString().endsWith(".png")).count());
        }
    }

    @Test
    @Timeout(120)
    void interleavedRunTakesTheRepetitionsInTurnsAndPairsEachWithTheBaselines(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("transport", "--quick", "--interleave", "--methods", "rtt",
                "--transports", "netty", "--baseline", "rmi", "--no-limits", "--clients", "1", "--reps", "2",
                "--rtt-calls", "50", "--rtt-warmup-calls", "20", "--warmup", "500ms", "--out", out.toString());
        assertEquals(0, code);

        List<CellResult> cells = CsvFiles.readResults(out.resolve(CsvFiles.RESULTS));
        assertTrue(cells.stream().allMatch(c -> c.error() == null), "cells failed: " + cells);
        List<String> order = cells.stream().filter(c -> c.key().dataType().equals("Integer"))
                .map(c -> c.key().transport() + " " + c.rep()).toList();
        assertEquals(List.of("rmi 1", "netty 1", "rmi 2", "netty 2"), order, "the rounds did not take turns");

        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("## Paired with the baseline, round by round"), md);
        assertTrue(md.contains("| netty | rtt | Integer | 1 | mean_us |"), md);
        assertTrue(md.contains("of 2 |"), "each netty round should have its rmi twin: " + md);
    }
}
