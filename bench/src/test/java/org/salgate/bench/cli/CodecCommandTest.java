package org.salgate.bench.cli;

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
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CodecCommandTest {

    private static final List<String> WORKLOADS = List.of("poi-1", "person", "reading", "sensor-list");

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        CommandLine cl = BenchCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void quickRunWritesCsvJsonAndMarkdownWithEveryRequestedCase(@TempDir Path tmp) throws Exception {
        Run r = run("codec", "--quick", "--codecs", "json", "--workloads", String.join(",", WORKLOADS),
                "--out", tmp.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("[4/4]"), r.out());

        List<String> rows = Files.readAllLines(tmp.resolve("codec.csv"));
        assertEquals(1 + WORKLOADS.size(), rows.size(), String.join("\n", rows));
        for (String w : WORKLOADS) {
            String row = rows.stream().filter(l -> l.startsWith("json," + w + ",")).findFirst().orElseThrow();
            String[] f = row.split(",");
            for (int i = 2; i <= 9; i++) {
                assertTrue(Double.parseDouble(f[i]) > 0, "column " + i + " of " + row);
            }
            assertEquals("true", f[12], row);
        }

        JsonNode json = new ObjectMapper().readTree(tmp.resolve("codec.json").toFile());
        assertEquals(WORKLOADS.size(), json.get("cases").size());
        for (JsonNode c : json.get("cases")) {
            assertTrue(c.get("bytes").asLong() > 0 && c.get("decodeNs").get("median").asDouble() > 0, c.toString());
        }
        assertEquals(0, json.get("failed").asInt());

        String md = Files.readString(tmp.resolve("codec.md"));
        assertTrue(md.contains("| sensor-list |") && md.contains("Encoded size") && md.contains("Allocated per decode"), md);
        assertTrue(md.contains("--codecs json"), "the report gives the command line");
        assertTrue(md.contains("mobile study"), md);
    }

    @Test
    void unknownCodecIsBadUsageNamingTheCodecs(@TempDir Path tmp) {
        Run r = run("codec", "--quick", "--codecs", "yaml", "--out", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown codec 'yaml'") && r.err().contains("json"), r.err());
    }

    @Test
    void unknownWorkloadIsBadUsageNamingTheWorkloads(@TempDir Path tmp) {
        Run r = run("codec", "--quick", "--codecs", "json", "--workloads", "poi-7", "--out", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown workload 'poi-7'") && r.err().contains("sensor-list"), r.err());
    }
}
