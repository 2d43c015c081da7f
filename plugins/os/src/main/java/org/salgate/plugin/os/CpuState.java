package org.salgate.plugin.os;

import oshi.hardware.CentralProcessor.TickType;

/** A CPU state whose share of time a sensor reports. */
enum CpuState {
    USER(TickType.USER),
    NICE(TickType.NICE),
    SYSTEM(TickType.SYSTEM),
    IDLE(TickType.IDLE);

    private final TickType tick;

    CpuState(TickType tick) {
        this.tick = tick;
    }

    /** Where this state's counter is in OSHI's tick array. */
    int index() {
        return tick.getIndex();
    }
}
