package org.salgate.model;


/**
 * What became of a stream's readings, reported when it ends.
 *
 * @param delivered readings sent to the client
 * @param skipped readings not taken because the client was not reading ({@link SlowConsumerPolicy#BLOCK}
 *                and {@link SlowConsumerPolicy#DISCONNECT})
 * @param dropped readings taken and then dropped, oldest first, because the client was not reading
 *                ({@link SlowConsumerPolicy#DROP_OLDEST}); each shows as a jump in sequence numbers
 */
public record StreamCounts(long delivered, long skipped, long dropped) {

    public static final StreamCounts NONE = new StreamCounts(0, 0, 0);

    public StreamCounts {
        if (delivered < 0 || skipped < 0 || dropped < 0) {
            throw new IllegalArgumentException("stream counts cannot be negative");
        }
    }

    /** Whether any reading was lost to a slow client. */
    public boolean lostAny() {
        return skipped > 0 || dropped > 0;
    }
}
