package org.salgate.agent.stream;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * When a stream ticks. A stream of a {@link StreamSource#deferred() device's channel} ticks at once
 * and then on the wall clock's multiples of its interval, so that every stream of one interval
 * ticks at the same moments, whenever it started: a device's lane then gathers their reads into
 * one batch (one Modbus request for a block of registers) instead of one per stream. Any other
 * stream ticks at once and every interval from its start.
 */
final class Ticks {

    private Ticks() {
    }

    /**
     * Schedules {@code tick} every {@code intervalMs}.
     *
     * @throws RejectedExecutionException when the scheduler is stopping
     */
    static ScheduledFuture<?> schedule(ScheduledExecutorService scheduler, Runnable tick, long intervalMs,
                                       boolean aligned) {
        if (!aligned) {
            return scheduler.scheduleAtFixedRate(tick, 0, intervalMs, TimeUnit.MILLISECONDS);
        }
        scheduler.execute(tick);
        return scheduler.scheduleAtFixedRate(tick, firstAlignedDelayMs(System.currentTimeMillis(), intervalMs),
                intervalMs, TimeUnit.MILLISECONDS);
    }

    /**
     * The wait from {@code nowMs} to the first multiple of {@code intervalMs} at least half an
     * interval away (a tick that came sooner after the one at once would find its read still
     * pending, and be skipped).
     */
    static long firstAlignedDelayMs(long nowMs, long intervalMs) {
        long delay = intervalMs - Math.floorMod(nowMs, intervalMs);
        return delay < (intervalMs + 1) / 2 ? delay + intervalMs : delay;
    }
}
