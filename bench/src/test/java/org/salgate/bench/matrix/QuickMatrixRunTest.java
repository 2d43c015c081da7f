package org.salgate.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;
import org.salgate.transport.Transports;
import picocli.CommandLine;

/** A real quick matrix (servers in child JVMs) and the command's refusals of unknown names. */
class QuickMatrixRunTest {

    private static int run(StringWriter err, String... args) {
        CommandLine cl = BenchCommand.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    @Timeout(120)
    void quickMatrixOverNettyAndSocketReportsAPositiveTimeForEveryCell(@TempDir Path out) throws Exception {
        assertTrue(Transports.available().keySet().containsAll(List.of("netty", "socket")),
                "the bench depends on the netty and socket transports: they must be found on its class path");
        int code = BenchCommand.commandLine().execute("matrix", "--quick", "--transports", "netty,socket",
                "--codecs", "json", "--out", out.toString());
        assertEquals(0, code);

        List<String> csv = Files.readAllLines(out.resolve(MatrixReport.CSV));
        assertEquals(MatrixReport.CSV_HEADER, csv.get(0));
        assertEquals(3, csv.size(), "one row per transport: " + csv);
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            assertEquals("json", f[1]);
            assertTrue(Double.parseDouble(f[3]) > 0, row);
            assertTrue(Double.parseDouble(f[4]) > 100, "a person graph is more than 100 bytes: " + row);
            assertEquals("true", f[6], row);
        }

        JsonNode json = new ObjectMapper().readTree(out.resolve(MatrixReport.JSON).toFile());
        assertEquals(2, json.path("cells").size());
        for (JsonNode cell : json.path("cells")) {
            assertTrue(cell.path("medianMs").asDouble() > 0, cell.toString());
        }
        String md = Files.readString(out.resolve(MatrixReport.MARKDOWN));
        assertTrue(md.contains("| codec | netty | socket |"), md);
        assertTrue(md.contains("--transports netty,socket"), md);
        assertTrue(md.contains("| JSON | 19983 | 19247 | 19777 |"), md);
    }

    @Test
    void unknownTransportIsBadUsageNamingTheAvailableOnes() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "matrix", "--transports", "pigeon", "--codecs", "json"));
        assertTrue(err.toString().contains("unknown transport 'pigeon'") && err.toString().contains("netty"),
                err.toString());
    }

    @Test
    void unknownCodecIsBadUsageNamingTheAvailableOnes() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "matrix", "--transports", "netty", "--codecs", "yaml"));
        assertTrue(err.toString().contains("unknown codec 'yaml'") && err.toString().contains("json"),
                err.toString());
    }
}
