package org.salgate.bench.scale;

/**
 * The agent over the measured window of a streaming cell, from its own counters (asked at both
 * ends of the window) and its CPU time from {@code /proc}.
 *
 * @param framesEncoded stream frames it encoded: one per reading of a stream of a client's own, one per
 *                      reading (and codec) of a shared stream however many clients it went to
 * @param delivered stream readings it sent, to all clients together
 * @param cpuNanos CPU time of all its threads
 * @param wallNanos the window's length
 */
public record AgentWindow(long framesEncoded, long delivered, long cpuNanos, long wallNanos) {

    /** Frames encoded per reading delivered: 1 when each client's reading is encoded for it alone. */
    public double encodedPerDelivered() {
        return delivered == 0 ? Double.NaN : (double) framesEncoded / delivered;
    }

    /** The agent's CPU time per reading delivered, in microseconds (its idle work included). */
    public double cpuMicrosPerDelivered() {
        return delivered == 0 ? Double.NaN : cpuNanos / 1e3 / delivered;
    }
}
