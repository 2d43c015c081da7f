package org.salgate.agent.stream;

import java.time.Duration;
import java.util.Objects;
import org.salgate.model.SlowConsumerPolicy;

/**
 * How the agent treats streams whose client reads slower than they produce.
 *
 * @param defaultPolicy the policy of a stream whose client named none
 * @param ringReadings how many readings a {@link SlowConsumerPolicy#DROP_OLDEST} stream holds for its client
 * @param disconnectAfter how long a {@link SlowConsumerPolicy#DISCONNECT} stream lets its session stay
 *                        unwritable before closing it
 */
public record SlowConsumerSettings(SlowConsumerPolicy defaultPolicy, int ringReadings, Duration disconnectAfter) {

    /** Readings a drop-oldest stream holds by default. */
    public static final int DEFAULT_RING_READINGS = 64;
    /** How long a disconnect stream waits by default. */
    public static final Duration DEFAULT_DISCONNECT_AFTER = Duration.ofSeconds(10);
    public static final SlowConsumerSettings DEFAULTS = new SlowConsumerSettings(SlowConsumerPolicy.BLOCK,
            DEFAULT_RING_READINGS, DEFAULT_DISCONNECT_AFTER);

    public SlowConsumerSettings {
        Objects.requireNonNull(defaultPolicy, "defaultPolicy");
        Objects.requireNonNull(disconnectAfter, "disconnectAfter");
        if (ringReadings < 1) {
            throw new IllegalArgumentException("a drop-oldest ring holds at least 1 reading, got " + ringReadings);
        }
        if (disconnectAfter.isNegative() || disconnectAfter.isZero()) {
            throw new IllegalArgumentException("disconnect-after must be positive, got " + disconnectAfter);
        }
    }

    /** The policy of a stream: the one its client chose, else the default. */
    public SlowConsumerPolicy policyFor(SlowConsumerPolicy chosen) {
        return chosen == null ? defaultPolicy : chosen;
    }
}
