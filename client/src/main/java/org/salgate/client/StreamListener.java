package org.salgate.client;

import org.salgate.wire.Reading;

/**
 * Receives the readings of one stream, in order, on the transport's thread. A listener that blocks
 * makes this client stop reading from the agent (every stream and response on the connection
 * waits), which the agent sees as a slow client; hand slow work to another thread, and never wait
 * here for a future of the same client.
 */
public interface StreamListener {

    /** The next reading of the stream; sequence numbers count from 0 without gaps. */
    void onReading(Reading reading);

    /**
     * The stream is over: stopped by this client, ended by the agent (sensor or protocol removed,
     * agent stopping), or the connection closed. Called once, after the last reading.
     *
     * @param reason why, for humans
     */
    default void onEnded(String reason) {}
}
