package org.salgate.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.salgate.bench.run.Panel;

class ChartsTest {

    @Test
    void cpuAndMemoryPanelsSayAbove100MeansLessThanTheBaseline() {
        for (Panel p : Panel.TRANSPORT) {
            String title = Charts.yAxisTitle(p, "rmi");
            if (p.title().startsWith("CPU")) {
                assertEquals("ratio to rmi (%): above 100 = less CPU than rmi", title);
            } else if (p.title().startsWith("Memory")) {
                assertEquals("ratio to rmi (%): above 100 = less memory than rmi", title);
            }
        }
        assertEquals("ratio to rmi (%): above 100 = less CPU than rmi", Charts.yAxisTitle(Panel.AGENT.get(2), "rmi"));
        assertEquals("ratio to rmi (%): above 100 = less memory than rmi", Charts.yAxisTitle(Panel.AGENT.get(3), "rmi"));
    }

    @Test
    void ratePanelsSayAbove100MeansMore() {
        assertEquals("ratio to socket (%): above 100 = more calls/s than socket",
                Charts.yAxisTitle(Panel.TRANSPORT.get(1), "socket"));
        assertEquals("ratio to rmi (%): above 100 = shorter round trips than rmi",
                Charts.yAxisTitle(Panel.TRANSPORT.get(0), "rmi"));
    }
}
