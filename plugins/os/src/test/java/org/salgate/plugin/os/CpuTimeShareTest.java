package org.salgate.plugin.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.SensorUnavailableException;

class CpuTimeShareTest {

    // user, nice, system, idle, iowait, irq, softirq, steal
    @Test
    void firstReadComparesWithBoot() throws Exception {
        assertEquals(25.0, new CpuTimeShare(CpuState.USER).update(new long[] {25, 0, 25, 50, 0, 0, 0, 0}));
    }

    @Test
    void laterReadsCoverOnlyTheTimeSinceThePreviousOne() throws Exception {
        CpuTimeShare idle = new CpuTimeShare(CpuState.IDLE);
        idle.update(new long[] {100, 0, 0, 100, 0, 0, 0, 0});
        assertEquals(90.0, idle.update(new long[] {110, 0, 0, 190, 0, 0, 0, 0}));
    }

    @Test
    void noTicksSinceThePreviousReadRepeatsItsShare() throws Exception {
        CpuTimeShare system = new CpuTimeShare(CpuState.SYSTEM);
        long[] ticks = {10, 0, 30, 60, 0, 0, 0, 0};
        assertEquals(30.0, system.update(ticks));
        assertEquals(30.0, system.update(ticks));
    }

    @Test
    void counterSteppingBackCountsAsNoTime() throws Exception {
        CpuTimeShare user = new CpuTimeShare(CpuState.USER);
        user.update(new long[] {0, 0, 0, 100, 20, 0, 0, 0});
        assertEquals(50.0, user.update(new long[] {10, 0, 0, 110, 15, 0, 0, 0}));
    }

    @Test
    void allZeroCountersAreUnavailable() {
        assertThrows(SensorUnavailableException.class, () -> new CpuTimeShare(CpuState.NICE).update(new long[8]));
    }
}
