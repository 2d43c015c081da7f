package org.salgate.wire;

/**
 * The agent's answer to a {@link Hello}. When {@code accepted} is false, {@code error} says why and
 * the agent closes the connection.
 *
 * @param accepted whether the agent accepted the hello
 * @param protocolVersion the protocol version the agent speaks
 * @param agentId a name identifying the agent
 * @param error why the hello was refused, or the empty string
 */
public record HelloReply(boolean accepted, int protocolVersion, String agentId, String error)
        implements Message {

    public HelloReply {
        agentId = agentId == null ? "" : agentId;
        error = error == null ? "" : error;
    }

    public static HelloReply accept(String agentId) {
        return new HelloReply(true, Hello.PROTOCOL_VERSION, agentId, "");
    }

    public static HelloReply refuse(String agentId, String error) {
        return new HelloReply(false, Hello.PROTOCOL_VERSION, agentId, error);
    }
}
