package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class ScaleConfigTest {

    private static ScaleConfig config(int clientProcesses, int connectRate) {
        return new ScaleConfig(ScaleMode.STREAM, List.of("netty"), List.of(1), clientProcesses, Duration.ofSeconds(1),
                100, 20, connectRate, Duration.ZERO, 200, 20, Duration.ofSeconds(1), false, Path.of("x"),
                "bench scale");
    }

    @Test
    void byDefaultNoProcessRunsMoreThan250Clients() {
        ScaleConfig c = config(0, 500);
        assertEquals(1, c.processesFor(1));
        assertEquals(1, c.processesFor(250));
        assertEquals(2, c.processesFor(251));
        assertEquals(4, c.processesFor(1000));
        assertEquals(40, c.processesFor(10_000));
    }

    @Test
    void explicitProcessesAreKeptButNeverMoreThanTheClients() {
        ScaleConfig c = config(8, 500);
        assertEquals(8, c.processesFor(1000));
        assertEquals(3, c.processesFor(3));
    }

    @Test
    void clientIRunsInProcessIModN() {
        assertEquals(List.of(0, 4, 8), ScaleConfig.clientsOf(0, 4, 10));
        assertEquals(List.of(1, 5, 9), ScaleConfig.clientsOf(1, 4, 10));
        assertEquals(List.of(3, 7), ScaleConfig.clientsOf(3, 4, 10));
        assertEquals(List.of(), ScaleConfig.clientsOf(2, 4, 2));
    }

    @Test
    void theProcessesTogetherConnectAtTheChosenRate() {
        ScaleConfig c = config(0, 500);
        assertEquals(8, c.connectPauseMillis(4)); // 4 processes, each one connect per 8 ms: 500/s together
        assertEquals(80, c.connectPauseMillis(40));
    }

    @Test
    void theAgentsSessionLimitIsRaisedOnlyWhereTheClientsNeedIt() {
        assertEquals(10_000, ScaleRunner.maxSessions(1000));
        assertEquals(10_016, ScaleRunner.maxSessions(10_000));
    }

    @Test
    void countsAndRatesMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> config(-1, 500));
        assertThrows(IllegalArgumentException.class, () -> config(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ScaleConfig(ScaleMode.IDLE, List.of("netty"),
                List.of(0), 0, Duration.ofSeconds(1), 100, 20, 500, Duration.ZERO, 200, 20, Duration.ZERO,
                false, Path.of("x"), "bench scale"));
    }

    @Test
    void readingsTheAgentSentThatNeverArrivedAreUnaccounted() {
        ProcessReport a = new ProcessReport(0, ProcessReport.RESULT, 2, 2, 0, null, 5, 2, 0, null, 100, 0, 1, 0,
                100, 0, 0, 100, 0, 0, List.of());
        ProcessReport b = new ProcessReport(1, ProcessReport.RESULT, 2, 2, 0, null, 5, 2, 0, null, 50, 0, 0, 0,
                52, 3, 0, 55, 0, 0, List.of());
        ClientTotals t = ClientTotals.of(List.of(a, b));
        assertEquals(150, t.received());
        assertEquals(152, t.agentDelivered());
        assertEquals(3, t.unaccounted()); // 149 distinct readings arrived of the 152 sent
        assertEquals(4, t.clients());
        assertEquals(3, t.agentSkipped());
    }
}
