package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;

/** {@code bench scale} for real, in its smallest form: the agent and two client processes, a few seconds. */
class QuickScaleRunTest {

    /** The one data row of a scale.csv, by column name. */
    private static Map<String, String> row(Path dir) throws Exception {
        List<Map<String, String>> rows = rows(dir, 1);
        return rows.get(0);
    }

    /** The {@code n} data rows of a scale.csv, each by column name. */
    private static List<Map<String, String>> rows(Path dir, int n) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve(ScaleReport.CSV));
        assertEquals(n + 1, lines.size(), "one header and " + n + " cells: " + lines);
        String[] names = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] values = line.split(",", -1);
            assertEquals(names.length, values.length, lines.toString());
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                m.put(names[i], values[i]);
            }
            rows.add(m);
        }
        return rows;
    }

    private static double num(Map<String, String> row, String column) {
        return Double.parseDouble(row.get(column));
    }

    @Test
    @Timeout(180)
    void tenStreamingClientsInTwoProcessesLoseNoReadingAndTheAgentIsMeasured(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("scale", "--mode", "stream", "--transports", "netty",
                "--clients", "10", "--client-processes", "2", "--duration", "1s", "--interval-ms", "50",
                "--warmup", "0s", "--out", out.toString());

        String md = Files.readString(out.resolve(ScaleReport.MARKDOWN));
        assertEquals(0, code, md);
        Map<String, String> r = row(out);
        assertEquals("10", r.get("clients"));
        assertEquals("2", r.get("processes"));
        assertEquals("10", r.get("connected"));
        assertEquals("0", r.get("connect_failures"));
        assertEquals("10", r.get("streams_started"));
        assertEquals("0", r.get("lost"));
        assertEquals("0", r.get("duplicated"));
        assertEquals("0", r.get("reordered"));
        assertEquals("0", r.get("unaccounted"));
        assertEquals("true", r.get("clean"));
        // 10 streams at 20 readings/s for at least the 1 s they all ran together
        assertTrue(num(r, "received") >= 10 * 10, r.toString());
        assertEquals(num(r, "received"), num(r, "agent_delivered"), r.toString());
        assertTrue(num(r, "agent_rss_median_bytes") > 10e6, "an agent JVM holds more than 10 MB: " + r);
        assertTrue(num(r, "agent_threads_peak") >= num(r, "agent_threads_median")
                && num(r, "agent_threads_median") > 5, r.toString());
        assertTrue(md.contains("0 readings lost, duplicated or reordered"), md);
        assertTrue(md.contains("process i mod N"), md);
        assertTrue(md.contains("sharing its cores"), md);
        assertTrue(Files.readString(out.resolve(ScaleReport.JSON)).contains("\"clean\" : true"));
    }

    @Test
    @Timeout(180)
    void withTlsEveryClientProcessStreamsOverTlsAndLosesNoReading(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("scale", "--mode", "stream", "--transports", "mina",
                "--clients", "10", "--client-processes", "2", "--duration", "1s", "--interval-ms", "50",
                "--warmup", "1s", "--tls", "--out", out.toString());

        String md = Files.readString(out.resolve(ScaleReport.MARKDOWN));
        assertEquals(0, code, md);
        Map<String, String> r = row(out);
        assertEquals("mina+tls", r.get("transport"));
        assertEquals("10", r.get("connected"));
        assertEquals("10", r.get("streams_started"));
        assertEquals("0", r.get("lost"));
        assertEquals("0", r.get("duplicated"));
        assertEquals("0", r.get("reordered"));
        assertEquals("true", r.get("clean"));
        assertTrue(num(r, "received") >= 10 * 10, r.toString());
        assertTrue(md.contains("Every connection is TLS"), md);
        assertTrue(Files.exists(out.resolve("tls-cert.pem")));
        String agentLog = Files.readString(out.resolve("agent-mina+tls-stream-10.log"));
        assertTrue(agentLog.contains("(mina, codec protobuf, TLS)"), agentLog);
        assertTrue(Files.readString(out.resolve(ScaleReport.JSON)).contains("\"tls\" : true"));
    }

    @Test
    @Timeout(240)
    void tenClientsOnOneSharedStreamGetEveryReadingEncodedOnceForAll(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("scale", "--mode", "fanout", "--transports", "netty",
                "--clients", "10", "--client-processes", "2", "--duration", "1s", "--interval-ms", "50",
                "--warmup", "0s", "--out", out.toString());

        String md = Files.readString(out.resolve(ScaleReport.MARKDOWN));
        assertEquals(0, code, md);
        List<Map<String, String>> rows = rows(out, 2);
        Map<String, String> own = rows.get(0);
        Map<String, String> shared = rows.get(1);
        assertEquals("own", own.get("streams"));
        assertEquals("shared", shared.get("streams"));
        for (Map<String, String> r : rows) {
            assertEquals("10", r.get("streams_started"), r.toString());
            assertEquals("0", r.get("lost"), r.toString());
            assertEquals("0", r.get("duplicated"), r.toString());
            assertEquals("0", r.get("reordered"), r.toString());
            assertEquals("0", r.get("unaccounted"), r.toString());
            assertEquals("true", r.get("clean"), r.toString());
            assertTrue(num(r, "window_delivered") >= 10 * 10, r.toString());
            assertTrue(num(r, "cpu_us_per_delivered") > 0, r.toString());
        }
        // own streams: a frame encoded per reading delivered (give or take the window's edges)
        assertTrue(num(own, "encoded_per_delivered") > 0.9, own.toString());
        // one shared stream: a frame encoded per reading taken, for all ten clients
        assertTrue(num(shared, "encoded_per_delivered") < 0.15, shared.toString());
        assertTrue(md.contains("Shared against own"), md);
    }

    @Test
    @Timeout(180)
    void fiftyIdleSessionsStayOpenAndAFreshClientIsTimedAloneAndWithThem(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("scale", "--mode", "idle", "--transports", "netty",
                "--clients", "50", "--client-processes", "2", "--warmup", "0s", "--settle", "1s",
                "--list-calls", "50", "--list-warmup-calls", "5", "--out", out.toString());

        String md = Files.readString(out.resolve(ScaleReport.MARKDOWN));
        assertEquals(0, code, md);
        Map<String, String> r = row(out);
        assertEquals("50", r.get("sessions"));
        assertEquals("50", r.get("opened"));
        assertEquals("0", r.get("connect_failures"));
        assertEquals("0", r.get("closed_by_agent"));
        assertEquals("0", r.get("idle_timeout_ms"));
        assertEquals("10000", r.get("max_sessions")); // the agent's default, enough for 50
        assertTrue(num(r, "list_alone_p50_us") > 0 && num(r, "list_with_p50_us") > 0, r.toString());
        assertTrue(num(r, "list_alone_min_us") <= num(r, "list_alone_p50_us")
                && num(r, "list_alone_p50_us") <= num(r, "list_alone_max_us"), r.toString());
        assertTrue(num(r, "ratio_p50") > 0, r.toString());
        assertTrue(num(r, "agent_rss_before_bytes") > 10e6 && num(r, "agent_rss_with_bytes") > 10e6, r.toString());
        assertTrue(num(r, "agent_threads_with") > 5, r.toString());
        assertTrue(r.get("bytes_per_session").length() > 0, r.toString());
        assertTrue(Double.isFinite(num(r, "live_heap_bytes_per_session")), r.toString()); // jcmd ran twice
        assertEquals("true", r.get("clean"));
        assertTrue(md.contains("every session opened and stayed open"), md);
        assertTrue(md.contains("--idle-timeout-ms 0"), md);
    }
}
