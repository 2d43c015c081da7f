package org.salgate.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class CellSummaryTest {

    @Test
    void medianAndRangeCountOnlySuccessfulRepetitions() {
        List<CellSummary> cells = CellSummary.of(List.of(
                new CellRun("netty", "json", 1, 30, 900, 50, null),
                new CellRun("netty", "json", 2, 10, 900, 40, null),
                CellRun.failed("netty", "json", 3, "boom"),
                new CellRun("netty", "json", 4, 20, 900, 60, null),
                new CellRun("socket", "json", 1, 5, 900, 10, null)));
        assertEquals(2, cells.size());
        CellSummary netty = cells.get(0);
        assertEquals(20, netty.medianMillis());
        assertEquals(10, netty.minMillis());
        assertEquals(30, netty.maxMillis());
        assertEquals(50, netty.serverCpuPercent(), 1e-9);
        assertEquals(3, netty.ok());
        assertEquals(1, netty.failed());
        assertEquals("boom", netty.firstError());
        assertEquals("socket", cells.get(1).transport());
    }

    @Test
    void aCellWithNoSuccessHasNoTime() {
        CellSummary c = CellSummary.of(List.of(CellRun.failed("rmi", "json", 1, "down"))).get(0);
        assertTrue(Double.isNaN(c.medianMillis()));
        assertEquals(0, c.ok());
    }

    @Test
    void evenCountsTakeTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, CellSummary.median(new double[] {1, 2, 3, 4}));
    }
}
