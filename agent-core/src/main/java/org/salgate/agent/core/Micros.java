package org.salgate.agent.core;

import java.time.Instant;

/** The agent's clock in microseconds since the epoch. */
public final class Micros {

    private Micros() {}

    /** Now, in microseconds since the epoch. */
    public static long now() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
