package org.salgate.bench.limits;

/**
 * The framework-free loopback ceiling: blocking Java sockets, no codec. A connection opens with one
 * byte: {@link #ECHO} then frames of {@code [int length][bytes]} each sent back as they are, or
 * {@link #STREAM} and an {@code int} size, after which the server writes
 * {@code [long sequence][size - 8 bytes]} messages until the client closes.
 */
public final class RawSocketProtocol {

    public static final int ECHO = 'E';
    public static final int STREAM = 'S';
    /** Streamed messages carry their sequence number in their first 8 bytes. */
    public static final int MIN_STREAM_SIZE = 8;

    private RawSocketProtocol() {}
}
