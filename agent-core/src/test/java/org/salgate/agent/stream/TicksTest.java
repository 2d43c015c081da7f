package org.salgate.agent.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TicksTest {

    @Test
    void aDeviceStreamTicksNextOnTheClocksMultipleOfItsInterval() {
        assertEquals(100, Ticks.firstAlignedDelayMs(1_000, 100));
        assertEquals(60, Ticks.firstAlignedDelayMs(1_040, 100));
        assertEquals(50, Ticks.firstAlignedDelayMs(1_050, 100));
    }

    @Test
    void aMultipleCloserThanHalfAnIntervalToTheTickAtOnceIsPassedOver() {
        assertEquals(110, Ticks.firstAlignedDelayMs(1_090, 100));
        assertEquals(1_001, Ticks.firstAlignedDelayMs(59_999, 1_000));
    }
}
