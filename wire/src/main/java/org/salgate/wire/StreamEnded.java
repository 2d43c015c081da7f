package org.salgate.wire;

import org.salgate.model.Result;
import org.salgate.model.StreamCounts;

import java.util.Objects;

/**
 * Tells a client that the agent ended one of its streams (sensor removed, protocol removed, agent
 * stopping, slow-consumer policy). A stream the client stopped itself ends with the response to its
 * stop request, {@link Result.StreamStopped}.
 *
 * @param streamId the stream that ended
 * @param reason why, for humans
 * @param counts what became of its readings
 */
public record StreamEnded(long streamId, String reason, StreamCounts counts) implements Message {
    public StreamEnded {
        reason = reason == null ? "" : reason;
        Objects.requireNonNull(counts, "counts");
    }

    /** An end with no counts to report. */
    public StreamEnded(long streamId, String reason) {
        this(streamId, reason, StreamCounts.NONE);
    }
}
