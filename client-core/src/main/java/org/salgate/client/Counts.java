package org.salgate.client;

/** A count and its noun for the client's messages: "1 sensor", "0 sensors", "28 sensors". */
public final class Counts {

    private Counts() {}

    /** {@code n} and the noun, which takes an s unless {@code n} is 1. */
    public static String of(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
