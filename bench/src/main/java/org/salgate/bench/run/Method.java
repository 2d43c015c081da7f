package org.salgate.bench.run;

import java.util.Locale;

import org.salgate.bench.score.Direction;

/** A test method and the metric its score is taken from. */
public enum Method {
    /** Synchronous round trip, N calls per client: mean round trip. */
    RTT(Metrics.MEAN_US, Direction.LOWER_IS_BETTER),
    /** Synchronous closed loop for a duration: completed calls per second. */
    TP(Metrics.CALLS_PER_S, Direction.HIGHER_IS_BETTER),
    /** Server push until stop: messages per second received. */
    STREAM(Metrics.MSGS_PER_S, Direction.HIGHER_IS_BETTER),
    /** Synchronous echo while the server is sampled: CPU and memory. */
    RESOURCE_SYNC(Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
    /** Streaming while the server is sampled: CPU and memory. */
    RESOURCE_ASYNC(Metrics.CPU_PCT, Direction.LOWER_IS_BETTER),
    /** Agent level, synchronous: the sensor list in a closed loop, server sampled. */
    AGENT_SYNC(Metrics.CALLS_PER_S, Direction.HIGHER_IS_BETTER),
    /** Agent level, asynchronous: streaming from the dummy sensors, server sampled. */
    AGENT_ASYNC(Metrics.MSGS_PER_S, Direction.HIGHER_IS_BETTER);

    private final String metric;
    private final Direction direction;

    Method(String metric, Direction direction) {
        this.metric = metric;
        this.direction = direction;
    }

    /** The metric the method's transfer-rate or CPU ratio is taken from. */
    public String metric() {
        return metric;
    }

    public Direction direction() {
        return direction;
    }

    public boolean samplesServer() {
        return this == RESOURCE_SYNC || this == RESOURCE_ASYNC || this == AGENT_SYNC || this == AGENT_ASYNC;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Method byId(String id) {
        return valueOf(id.trim().toUpperCase(Locale.ROOT));
    }
}
