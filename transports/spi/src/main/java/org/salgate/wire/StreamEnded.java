package org.salgate.wire;

/**
 * Tells a client that the agent ended one of its streams (sensor removed, protocol removed, agent
 * stopping). A stream the client stopped itself ends with the response to its stop request.
 *
 * @param streamId the stream that ended
 * @param reason why, for humans
 */
public record StreamEnded(long streamId, String reason) implements Message {
    public StreamEnded {
        reason = reason == null ? "" : reason;
    }
}
