package org.salgate.wire;

import org.salgate.model.ErrorCode;

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
 * @param role the role the agent gave the session ({@code reader} or {@code admin}); the empty string
 *             when refused, or from an agent that does not say
 */
public record HelloReply(boolean accepted, int protocolVersion, String agentId, String error, ErrorCode code,
                         String role) implements Message {

    public HelloReply {
        agentId = agentId == null ? "" : agentId;
        error = error == null ? "" : error;
        code = accepted ? null : code == null ? ErrorCode.PROTOCOL_ERROR : code;
        role = accepted && role != null ? role : "";
    }

    /** A reply that names no role. */
    public HelloReply(boolean accepted, int protocolVersion, String agentId, String error, ErrorCode code) {
        this(accepted, protocolVersion, agentId, error, code, "");
    }

    /** A reply that names no role, whose refusal, if any, is a {@link ErrorCode#PROTOCOL_ERROR}. */
    public HelloReply(boolean accepted, int protocolVersion, String agentId, String error) {
        this(accepted, protocolVersion, agentId, error, null, "");
    }

    /** An acceptance that names no role. */
    public static HelloReply accept(String agentId) {
        return accept(agentId, "");
    }

    /** An acceptance giving the session {@code role}, such as {@code reader} or {@code admin}. */
    public static HelloReply accept(String agentId, String role) {
        return new HelloReply(true, Hello.PROTOCOL_VERSION, agentId, "", null, role);
    }

    /** A refusal for a protocol version or codec mismatch. */
    public static HelloReply refuse(String agentId, String error) {
        return refuse(agentId, ErrorCode.PROTOCOL_ERROR, error);
    }

    public static HelloReply refuse(String agentId, ErrorCode code, String error) {
        return new HelloReply(false, Hello.PROTOCOL_VERSION, agentId, error, code, "");
    }
}
