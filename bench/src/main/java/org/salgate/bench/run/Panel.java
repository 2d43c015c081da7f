package org.salgate.bench.run;

import java.util.List;

import org.salgate.bench.score.Direction;

/**
 * One compared metric, as a panel of the paper's Figure 2: a method, the metric taken from it, and
 * which way it improves.
 */
public record Panel(String id, String title, Method method, String metric, Direction direction) {

    /** Figure 2's seven panels (transport level). */
    public static final List<Panel> TRANSPORT = List.of(
            new Panel("A", "RTT", Method.RTT, Metrics.MEAN_US, Direction.LOWER_IS_BETTER),
            new Panel("B", "Throughput", Method.TP, Metrics.CALLS_PER_S, Direction.HIGHER_IS_BETTER),
            new Panel("C", "Streaming", Method.STREAM, Metrics.MSGS_PER_S, Direction.HIGHER_IS_BETTER),
            new Panel("D", "CPU, synchronous", Method.RESOURCE_SYNC, Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
            new Panel("E", "Memory, synchronous", Method.RESOURCE_SYNC, Metrics.RSS_MB, Direction.LOWER_IS_BETTER),
            new Panel("F", "CPU, asynchronous", Method.RESOURCE_ASYNC, Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
            new Panel("G", "Memory, asynchronous", Method.RESOURCE_ASYNC, Metrics.RSS_MB, Direction.LOWER_IS_BETTER));

    /** The agent level's six: sensor-list TP, dummy streaming, and their CPU and memory. */
    public static final List<Panel> AGENT = List.of(
            new Panel("A", "Sensor list throughput", Method.AGENT_SYNC, Metrics.CALLS_PER_S, Direction.HIGHER_IS_BETTER),
            new Panel("B", "Dummy-sensor streaming", Method.AGENT_ASYNC, Metrics.MSGS_PER_S, Direction.HIGHER_IS_BETTER),
            new Panel("C", "CPU, synchronous", Method.AGENT_SYNC, Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
            new Panel("D", "Memory, synchronous", Method.AGENT_SYNC, Metrics.RSS_MB, Direction.LOWER_IS_BETTER),
            new Panel("E", "CPU, asynchronous", Method.AGENT_ASYNC, Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
            new Panel("F", "Memory, asynchronous", Method.AGENT_ASYNC, Metrics.RSS_MB, Direction.LOWER_IS_BETTER));

    public static List<Panel> of(Level level) {
        return level == Level.TRANSPORT ? TRANSPORT : AGENT;
    }
}
