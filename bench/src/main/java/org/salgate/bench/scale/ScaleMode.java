package org.salgate.bench.scale;

import java.util.Locale;

/** What the clients of {@code bench scale} do once connected. */
public enum ScaleMode {
    /** Each client streams one dummy sensor at a fixed interval; every reading's sequence number is checked. */
    STREAM,
    /** Each client completes its hello and then stays silent, holding its session open. */
    IDLE;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
