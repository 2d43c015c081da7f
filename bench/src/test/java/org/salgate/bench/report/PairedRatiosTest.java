package org.salgate.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.salgate.bench.run.CellKey;
import org.salgate.bench.run.CellResult;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.ResultSet;

class PairedRatiosTest {

    private static CellResult rtt(String transport, int rep, double meanMicros) {
        return new CellResult(new CellKey(Level.TRANSPORT, transport, Method.RTT, "Integer", 1), rep,
                Map.of(Metrics.MEAN_US, meanMicros), null);
    }

    @Test
    void eachRoundIsSetAgainstTheBaselinesSameRoundNotAgainstItsMedian() {
        // the machine slows down in round 2: both sides double, so the paired ratio stays 0.9
        List<CellResult> cells = new ArrayList<>(List.of(
                rtt("rmi", 1, 100), rtt("netty", 1, 90),
                rtt("rmi", 2, 200), rtt("netty", 2, 180),
                rtt("rmi", 3, 100), rtt("netty", 3, 90)));
        List<PairedRatios.Row> rows = PairedRatios.rows(new ResultSet(cells), "rmi");

        assertEquals(1, rows.size());
        PairedRatios.Row netty = rows.get(0);
        assertEquals("netty", netty.key().transport());
        assertEquals(0.9, netty.ratio().median(), 1e-9);
        assertEquals(0.9, netty.ratio().min(), 1e-9);
        assertEquals(0.9, netty.ratio().max(), 1e-9);
        assertEquals(3, netty.better(), "a lower time is better in every round");
    }

    @Test
    void aRateIsBetterWhenHigherAndAFailedRoundHasNoPair() {
        Map<String, Double> fast = Map.of(Metrics.CALLS_PER_S, 1200.0);
        Map<String, Double> slow = Map.of(Metrics.CALLS_PER_S, 800.0);
        Map<String, Double> base = Map.of(Metrics.CALLS_PER_S, 1000.0);
        CellKey rmi = new CellKey(Level.AGENT, "rmi", Method.AGENT_SYNC, "sensor list", 1);
        CellKey netty = new CellKey(Level.AGENT, "netty", Method.AGENT_SYNC, "sensor list", 1);
        List<CellResult> cells = List.of(
                new CellResult(rmi, 1, base, null), new CellResult(netty, 1, fast, null),
                new CellResult(rmi, 2, base, null), new CellResult(netty, 2, slow, null),
                new CellResult(rmi, 3, Map.of(), "the server died"), new CellResult(netty, 3, fast, null));
        PairedRatios.Row row = PairedRatios.rows(new ResultSet(cells), "rmi").get(0);

        assertEquals(2, row.ratio().n(), "round 3 has no baseline to pair with");
        assertEquals(1, row.better());
        assertEquals(1.0, row.ratio().median(), 1e-9);
        String md = PairedRatios.markdown(List.of(row), "rmi");
        assertTrue(md.contains("| netty | agent_sync | sensor list | 1 | calls_per_s | 1.00 [0.80-1.20] | 1 of 2 |"), md);
    }

    @Test
    void noRowsMeansNoSection() {
        assertEquals("", PairedRatios.markdown(PairedRatios.rows(new ResultSet(List.of(rtt("rmi", 1, 100))), "rmi"),
                "rmi"));
    }
}
