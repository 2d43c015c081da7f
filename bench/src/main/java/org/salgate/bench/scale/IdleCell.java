package org.salgate.bench.scale;

import java.util.List;

import org.salgate.bench.run.Stat;
import org.salgate.bench.sample.ResourceSample;

/**
 * One idle-mode cell: {@code sessions} sessions held open on one transport, spread over
 * {@code processes} client processes, and a fresh client's sensor list timed before and while they are.
 *
 * @param maxSessions the agent's {@code --max-sessions} in this cell
 * @param idleTimeoutMillis the agent's {@code --idle-timeout-ms} in this cell (0: never)
 * @param connectPauseMillis each process's pause between two of its connects
 * @param before the agent sampled before any idle session, while the fresh client measured
 * @param during the agent sampled with every idle session open, from the settle to the end of the fresh client's calls
 * @param listBefore the fresh client's list calls on the agent alone
 * @param listDuring a fresh client's list calls with the idle sessions open
 * @param holdMillis how long the sessions were held open, from the last process's report to the check
 * @param liveHeapBefore the agent's live heap after a full collection, before any idle session; -1 if not taken
 * @param liveHeapDuring the same with every idle session open; -1 if not taken
 * @param failures what went wrong besides the counts
 */
public record IdleCell(String transport, int sessions, int processes, int maxSessions, long idleTimeoutMillis,
                       long connectPauseMillis, List<ResourceSample> before, List<ResourceSample> during,
                       Latency listBefore, Latency listDuring, long holdMillis, long liveHeapBefore,
                       long liveHeapDuring, ClientTotals totals, List<String> failures) {

    public IdleCell {
        before = List.copyOf(before);
        during = List.copyOf(during);
        failures = List.copyOf(failures);
    }

    public Stat rssBefore() {
        return Stat.of(before.stream().map(s -> (double) s.rssBytes()).toList());
    }

    public Stat rssDuring() {
        return Stat.of(during.stream().map(s -> (double) s.rssBytes()).toList());
    }

    public Stat threadsBefore() {
        return Stat.of(before.stream().map(s -> (double) s.threads()).toList());
    }

    public Stat threadsDuring() {
        return Stat.of(during.stream().map(s -> (double) s.threads()).toList());
    }

    /** (median RSS with the sessions - median RSS before) / sessions open; NaN when none opened. */
    public double bytesPerSession() {
        return totals.connected() > 0 ? (rssDuring().median() - rssBefore().median()) / totals.connected()
                : Double.NaN;
    }

    /**
     * (live heap with the sessions - live heap before) / sessions open: what the agent's objects for
     * an idle session hold; NaN when none opened or the live heap was not taken.
     */
    public double liveHeapBytesPerSession() {
        return totals.connected() > 0 && liveHeapBefore >= 0 && liveHeapDuring >= 0
                ? (double) (liveHeapDuring - liveHeapBefore) / totals.connected() : Double.NaN;
    }

    /** The fresh client's median list time with the sessions open over the same on the agent alone. */
    public double listRatio() {
        return listDuring.p50Micros() / listBefore.p50Micros();
    }

    /** Whether every session opened and stayed open, and every list call of the fresh clients succeeded. */
    public boolean clean() {
        return failures.isEmpty() && totals.connectFailures() == 0 && totals.connected() == sessions
                && totals.closedByAgent() == 0 && listBefore.errors() == 0 && listDuring.errors() == 0
                && listBefore.calls() > 0 && listDuring.calls() > 0;
    }
}
