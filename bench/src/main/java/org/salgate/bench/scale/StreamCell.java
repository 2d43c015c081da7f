package org.salgate.bench.scale;

import java.util.List;

import org.salgate.bench.run.Stat;
import org.salgate.bench.sample.ResourceSample;
import org.salgate.bench.sample.ResourceSampler;

/**
 * One streaming cell: {@code clients} clients on one transport, spread over {@code processes}
 * client processes, each streaming one dummy sensor, on a stream of its own or all on one shared one.
 *
 * @param shared whether the clients joined one shared stream (fan-out mode) rather than each its own
 * @param maxSessions the agent's {@code --max-sessions} in this cell
 * @param connectPauseMillis each process's pause between two of its connects
 * @param agentBefore the agent after its warm-up, before any client connected (null if unread)
 * @param samples the agent, sampled while every stream ran
 * @param measuredSeconds how long all the streams ran together
 * @param window the agent's counters and CPU over that time (null when it did not answer)
 * @param failures what went wrong besides the counts (a process that died, an agent that did not start)
 */
public record StreamCell(String transport, int clients, int processes, int maxSessions, long connectPauseMillis,
                         boolean shared, ResourceSample agentBefore, List<ResourceSample> samples,
                         double measuredSeconds, AgentWindow window, ClientTotals totals, List<String> failures) {

    public StreamCell {
        samples = List.copyOf(samples);
        failures = List.copyOf(failures);
    }

    /** The agent's resident memory while the streams ran: median, min and peak, in bytes. */
    public Stat rss() {
        return Stat.of(samples.stream().map(s -> (double) s.rssBytes()).toList());
    }

    /** The agent's threads while the streams ran: median, min and peak. */
    public Stat threads() {
        return Stat.of(samples.stream().map(s -> (double) s.threads()).toList());
    }

    /** The agent's mean CPU while the streams ran, 100 % = one core. */
    public double cpuPercent() {
        return ResourceSampler.meanCpu(samples);
    }

    /** Whether every client connected and streamed, and no reading was lost, duplicated or reordered. */
    public boolean clean() {
        return failures.isEmpty() && window != null && totals.connectFailures() == 0 && totals.connected() == clients
                && totals.streamsStarted() == clients && totals.streamFailures() == 0 && totals.lost() == 0
                && totals.duplicated() == 0 && totals.reordered() == 0 && totals.unaccounted() == 0
                && totals.endedByAgent() == 0 && totals.closedByAgent() == 0 && totals.received() > 0;
    }
}
