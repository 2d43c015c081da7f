package org.salgate.wire;

/**
 * The agent's answer to a {@link Hello}. When {@code accepted} is false, {@code error} says why,
 * {@code code} classifies it, and the agent closes the connection.
 *
 * @param accepted whether the agent accepted the hello
 * @param protocolVersion the protocol version the agent speaks
 * @param agentId a name identifying the agent
 * @param error why the hello was refused, or the empty string
 * @param code why the hello was refused ({@link ErrorCode#UNAUTHENTICATED} for missing or wrong
 *             credentials, {@link ErrorCode#PROTOCOL_ERROR} for a version or codec mismatch); null
 *             when accepted
 */
public record HelloReply(boolean accepted, int protocolVersion, String agentId, String error, ErrorCode code)
        implements Message {

    public HelloReply {
        agentId = agentId == null ? "" : agentId;
        error = error == null ? "" : error;
        code = accepted ? null : code == null ? ErrorCode.PROTOCOL_ERROR : code;
    }

    /** A reply whose refusal, if any, is a {@link ErrorCode#PROTOCOL_ERROR}. */
    public HelloReply(boolean accepted, int protocolVersion, String agentId, String error) {
        this(accepted, protocolVersion, agentId, error, null);
    }

    public static HelloReply accept(String agentId) {
        return new HelloReply(true, Hello.PROTOCOL_VERSION, agentId, "", null);
    }

    /** A refusal for a protocol version or codec mismatch. */
    public static HelloReply refuse(String agentId, String error) {
        return refuse(agentId, ErrorCode.PROTOCOL_ERROR, error);
    }

    public static HelloReply refuse(String agentId, ErrorCode code, String error) {
        return new HelloReply(false, Hello.PROTOCOL_VERSION, agentId, error, code);
    }
}
