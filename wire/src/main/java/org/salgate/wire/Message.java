package org.salgate.wire;

/**
 * One unit on the wire between a client and an agent. Every transport carries these and nothing
 * else; a {@link Codec} maps them to bytes.
 *
 * <p>Client to agent: {@link Hello} then {@link Request}s. Agent to client: {@link HelloReply},
 * {@link Response}s, and pushed {@link StreamData}, {@link StreamEnded} and {@link EventNotice}.
 */
public sealed interface Message
        permits Hello, HelloReply, Request, Response, StreamData, StreamEnded, EventNotice {

    /** Whether this message opens a connection (always encoded with the handshake codec). */
    default boolean isHandshake() {
        return this instanceof Hello || this instanceof HelloReply;
    }
}
