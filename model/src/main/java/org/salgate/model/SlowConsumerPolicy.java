package org.salgate.model;


import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the agent does with a stream when its client reads slower than the stream produces, that
 * is while the client's session is not writable. Chosen per stream by the client at set-up; the
 * agent has a default ({@link #BLOCK} unless configured) and reports the policy it applied in
 * {@link Result.StreamHandle}. The stream's end carries its {@link StreamCounts}.
 */
public enum SlowConsumerPolicy {

    /** Readings due while the session is unwritable are not taken; each is counted as skipped. */
    BLOCK("block"),
    /**
     * Readings are taken on time into a small ring per stream; when the ring is full the oldest is
     * dropped and counted. The client gets the newest, and sees each loss as a jump in the
     * readings' sequence numbers.
     */
    DROP_OLDEST("drop-oldest"),
    /** Like {@link #BLOCK}, but once the session has been unwritable for the agent's limit, it is closed with the reason. */
    DISCONNECT("disconnect");

    private final String wireName;

    SlowConsumerPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The name used on the command line and in text codecs: {@code block}, {@code drop-oldest}, {@code disconnect}. */
    public String wireName() {
        return wireName;
    }

    /** The policy of a name as {@link #wireName()} gives it (case-insensitive). */
    public static SlowConsumerPolicy parse(String name) {
        for (SlowConsumerPolicy p : values()) {
            if (p.wireName.equalsIgnoreCase(name.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown slow-consumer policy '" + name + "': choose one of "
                + Arrays.stream(values()).map(SlowConsumerPolicy::wireName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return wireName.toLowerCase(Locale.ROOT);
    }
}
