package org.salgate.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;
import org.salgate.bench.report.CsvFiles;
import org.salgate.bench.sample.ProcStat;
import org.salgate.transport.Transports;

/** A short agent-level run: the real agent in a child JVM on two transports, sensor list and dummy streaming. */
class QuickAgentRunTest {

    @Test
    @Timeout(120)
    void agentRunMeasuresSensorListAndDummyStreaming(@TempDir Path out) throws Exception {
        assertTrue(ProcStat.supported(), "the agent level samples the agent through Linux's /proc, which this machine lacks");
        assertTrue(Transports.available().keySet().containsAll(List.of("netty", "socket")),
                "the bench depends on the netty and socket transports: they must be found on its class path");
        int code = BenchCommand.commandLine().execute("agent", "--quick", "--transports", "netty",
                "--baseline", "socket", "--clients", "1", "--agent-duration", "600ms", "--warmup", "0s",
                "--out", out.toString());
        assertEquals(0, code);
        List<CellResult> cells = CsvFiles.readResults(out.resolve(CsvFiles.RESULTS));
        assertEquals(4, cells.size(), cells.toString());
        for (CellResult c : cells) {
            assertTrue(c.error() == null, c.key() + ": " + c.error());
            assertTrue(c.get(c.key().method().metric()) > 0, c.key() + ": " + c.metrics());
            assertTrue(c.get(Metrics.RSS_MB) > 1, c.key() + " has no server memory");
        }
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("Table V ") && md.contains("Table VIII"), md);
    }
}
