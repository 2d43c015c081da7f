package org.salgate.bench.scale;

import java.util.Locale;

/** What the clients of {@code bench scale} do once connected. */
public enum ScaleMode {
    /** Each client streams one dummy sensor at a fixed interval; every reading's sequence number is checked. */
    STREAM,
    /**
     * Fan-out: every client streams DUMMY_0 at a fixed interval, first each a stream of its own, then
     * all one shared stream (each reading read and encoded once on the agent); the agent's frames
     * encoded and CPU per delivered reading are measured in both.
     */
    FANOUT,
    /** Each client completes its hello and then stays silent, holding its session open. */
    IDLE;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
