package org.salgate.bench.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;

/** A real short run of {@code bench devices} on j2mod's slave in this JVM: every cell, and counts that agree. */
class QuickDevicesRunTest {

    @Test
    @Timeout(120)
    void quickRunMeasuresEveryCellWithConsistentCounts(@TempDir Path out) throws Exception {
        // the Modbus rows alone: the 1-Wire, serial and SNMP rows need owserver, socat and snmpd, which Maven cannot fetch
        int code = BenchCommand.commandLine().execute("devices", "--quick", "--devices", "2,5", "--rows", "none",
                "--out", out.toString());

        String md = Files.readString(out.resolve(DevicesReport.MARKDOWN));
        assertEquals(0, code, md);
        Map<String, Double> csv = csv(out.resolve(DevicesReport.CSV));
        for (String cell : List.of("poll 1x1", "batch 1x1", "batch 1x10", "batch 1x100", "stream 2x10",
                "stream 5x10", "latency 1x1")) {
            assertTrue(csv.keySet().stream().anyMatch(k -> k.startsWith(cell + ",")), cell + " missing from the CSV");
        }
        // every read through the agent is one Modbus request, and both sides read
        assertEquals(1.0, csv.get("poll 1x1,server_requests_per_agent_read"), 0.01);
        assertEquals(1.0, csv.get("poll 1x1,server_requests_per_ceiling_read"), 0.01);
        assertTrue(csv.get("poll 1x1,agent_reads_per_s") > 0 && csv.get("poll 1x1,ceiling_reads_per_s") > 0
                && csv.get("poll 1x1,dummy_reads_per_s") > 0);
        assertEquals(0.0, csv.get("poll 1x1,agent_errors"));
        assertEquals(csv.get("poll 1x1,agent_reads_per_s") / csv.get("poll 1x1,ceiling_reads_per_s"),
                csv.get("poll 1x1,ratio_to_ceiling"), 1e-9);
        // K contiguous registers in one poll: the driver alone makes one request of them; through the agent
        // every read is answered, OK or refused, in at least one request and at most K
        for (int k : new int[] {1, 10, 100}) {
            String cell = "batch 1x" + k + ",";
            assertEquals(1.0, csv.get(cell + "driver_requests_per_poll"), 1e-9, "driver requests per poll of " + k);
            assertEquals(k, csv.get(cell + "driver_readings_ok_per_poll"), 1e-9);
            assertEquals(k, csv.get(cell + "readings_ok_per_poll") + csv.get(cell + "errors_per_poll"), 1e-9);
            double requests = csv.get(cell + "requests_per_poll");
            assertTrue(requests >= 1 && requests <= k, cell + " " + requests + " requests per poll");
        }
        assertEquals(1.0, csv.get("batch 1x1,requests_per_poll"), 1e-9);
        assertEquals(0.0, csv.get("batch 1x1,errors_per_poll"));
        // streams: what arrived, what was missed, the channels and the expected rate agree
        for (int m : new int[] {2, 5}) {
            String cell = "stream " + m + "x10,";
            assertEquals(m * 10, csv.get(cell + "channels"));
            assertEquals(m * 10 * 10.0, csv.get(cell + "expected_per_s"), 1e-9);
            double received = csv.get(cell + "received_per_s");
            assertTrue(received > 0, cell + " received nothing");
            assertEquals(received / csv.get(cell + "expected_per_s"), csv.get(cell + "received_over_expected"), 1e-9);
            assertEquals(0.0, csv.get(cell + "error_readings"));
            assertTrue(csv.get(cell + "agent_skipped") >= 0 && csv.get(cell + "agent_cpu_pct") > 0);
            assertTrue(csv.get(cell + "jvm_rss_mb") > 0);
        }
        assertEquals(csv.get("latency 1x1,changes"), csv.get("latency 1x1,changes_seen")
                + csv.get("latency 1x1,changes_missed"));
        assertTrue(csv.get("latency 1x1,latency_p50_ms") > 0);

        // OPC UA: 1000 monitored items at 100 ms through the agent and through Milo's client alone
        for (String side : List.of(OpcuaRow.AGENT, OpcuaRow.MILO)) {
            String cell = side + ",";
            assertEquals(OpcuaRow.ITEMS * 10.0, csv.get(cell + "expected_per_s"), 1e-9);
            assertTrue(csv.get(cell + "readings_per_s") > 0 && csv.get(cell + "fresh_per_s") > 0, side);
            assertTrue(csv.get(cell + "fresh_per_s") <= csv.get(cell + "readings_per_s"), side);
            assertTrue(csv.get(cell + "latency_p50_ms") > 0, side);
            assertEquals(0.0, csv.get(cell + "error_readings"), side);
        }
        assertTrue(md.contains("## OPC UA: 1000 monitored items") && md.contains("Agent over Milo alone"), md);

        assertTrue(md.contains("## One device, one register, back to back") && md.contains("| 100 | ")
                && md.contains("| 5 x 10 |") && md.contains("## From a register change"), md);
    }

    @Test
    void aRowTheBenchDoesNotHaveIsRefusedNamingTheRowsItHas() {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cli = BenchCommand.commandLine();
        cli.setErr(new java.io.PrintWriter(err));
        assertEquals(2, cli.execute("devices", "--quick", "--rows", "bacnet"));
        assertTrue(err.toString().contains("--rows names onewire, serial, snmp or none"), err.toString());
    }

    /** {@code cell,metric} to the value of the one repetition. */
    private static Map<String, Double> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        assertEquals(DevicesReport.CSV_HEADER, lines.get(0));
        Map<String, Double> values = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals("1", f[1], line);
            values.put(f[0] + "," + f[2], f[3].isEmpty() ? Double.NaN : Double.parseDouble(f[3]));
        }
        return values;
    }
}
