package org.salgate.mqtt.sparkplug;

/**
 * Sparkplug's message sequence number: 0 to 255, then 0 again. Each edge node message but NDEATH
 * carries the current number; it moves on only once the message was handed to the client, so a
 * refused message is sent again with the same number. Not thread-safe: the bridge's sender thread owns it.
 */
final class Sequence {

    /** Numbers wrap after this one. */
    static final int MAX = 255;

    private int current;

    /** The number of the next message. */
    int current() {
        return current;
    }

    /** The message with {@link #current()} was sent. */
    void advance() {
        current = current == MAX ? 0 : current + 1;
    }

    /** Starts again at 0, as every NBIRTH does. */
    void reset() {
        current = 0;
    }
}
