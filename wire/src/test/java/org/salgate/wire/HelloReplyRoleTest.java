package org.salgate.wire;

import org.salgate.model.ErrorCode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.salgate.wire.proto.WireProto;

/**
 * The role an accepted hello reply names travels in a field of its own (6), so an agent and a client
 * from before it still read each other's hellos: an older agent's reply names no role.
 */
class HelloReplyRoleTest {

    private final Codec codec = new ProtobufCodec();

    @Test
    void theRoleOfAnAcceptedHelloRoundTrips() throws CodecException {
        for (String role : new String[] {"reader", "admin"}) {
            HelloReply reply = HelloReply.accept("agent-1", role);
            HelloReply back = (HelloReply) codec.decode(codec.encode(reply));
            assertEquals(reply, back);
            assertEquals(role, back.role());
        }
    }

    @Test
    void aReplyFromAnOlderAgentDecodesWithNoRole() throws CodecException {
        // Frame{hello_reply (2) {accepted (1): true, protocol_version (2): 1, agent_id (3): "old"}},
        // written by hand as an agent from before the role field sends it
        byte[] older = {0x12, 0x09, 0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 'o', 'l', 'd'};
        HelloReply reply = (HelloReply) codec.decode(older);
        assertEquals(new HelloReply(true, 1, "old", ""), reply);
        assertEquals("", reply.role());
    }

    @Test
    void theRoleIsANewFieldAfterThoseOlderPeersKnow() {
        assertEquals(6, WireProto.HelloReply.ROLE_FIELD_NUMBER);
        assertEquals(5, WireProto.HelloReply.CODE_FIELD_NUMBER);
    }

    @Test
    void aRefusalNamesNoRole() throws CodecException {
        HelloReply refused = new HelloReply(false, Hello.PROTOCOL_VERSION, "agent-1", "no token",
                ErrorCode.UNAUTHENTICATED, "admin");
        assertEquals("", refused.role());
        assertEquals("", ((HelloReply) codec.decode(codec.encode(refused))).role());
    }
}
