package org.salgate.agent.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.model.Result;

@Timeout(30)
class AuthenticationTest {

    private static final String READER = "reader-token-0123456789";

    private AgentFixture fixture;

    @AfterEach
    void tearDown() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** A session of an agent whose only token is {@link #READER}, after a hello presenting {@code token}. */
    private FakeSession helloWith(String token) throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()),
                b -> b.tokens(Tokens.parse(List.of(READER + " reader"), "test")));
        FakeSession s = fixture.transport.server().open(Integer.MAX_VALUE);
        fixture.transport.server().handler().messageReceived(s,
                new Hello(Hello.PROTOCOL_VERSION, "protobuf", "test-client", token));
        return s;
    }

    @Test
    void aReaderTokenOpensASessionThatMayRead() throws Exception {
        FakeSession s = helloWith(READER);
        assertTrue(s.await(HelloReply.class, r -> true, 1, AgentFixture.WAIT_MS).get(0).accepted());
        fixture.ok(s, new Call.ListSensors(false), org.salgate.model.Result.Sensors.class);
        fixture.fails(s, new Call.RemoveSensor("T_0"), ErrorCode.PERMISSION_DENIED);
    }

    @Test
    void aWrongTokenIsRefusedUnauthenticatedAndTheSessionClosed() throws Exception {
        FakeSession s = helloWith("wrong-token-0123456789");
        HelloReply reply = s.await(HelloReply.class, r -> true, 1, AgentFixture.WAIT_MS).get(0);
        assertFalse(reply.accepted());
        assertEquals(ErrorCode.UNAUTHENTICATED, reply.code());
        assertFalse(s.isOpen(), "the refused session is closed");
        assertEquals(1, s.sent().size(), "only the refusal was sent: " + s.sent());
    }

    @Test
    void anInProcessSessionIsLetInAsAReaderWithTheAgentsOwnCredentialsOnly() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()),
                b -> b.tokens(Tokens.parse(List.of(READER + " reader"), "test")));
        String credentials = fixture.agent.inProcessCredentials();
        assertTrue(credentials.length() >= Tokens.MIN_TOKEN_LENGTH, "a token is made when tokens are required");

        BridgeSession bridge = fixture.agent.openSession("bridge", () -> true, new IgnoringSink());
        assertTrue(bridge.hello("bridge", "protobuf", credentials).get(5, TimeUnit.SECONDS).accepted());
        assertTrue(bridge.call(new Call.ListSensors(false)).get(5, TimeUnit.SECONDS) instanceof Result.Sensors);
        Result removal = bridge.call(new Call.RemoveSensor("T_0")).get(5, TimeUnit.SECONDS);
        assertEquals(ErrorCode.PERMISSION_DENIED, ((Result.Failure) removal).code(), "the bridge is a reader");

        BridgeSession anonymous = fixture.agent.openSession("anonymous", () -> true, new IgnoringSink());
        assertFalse(anonymous.hello("anonymous", "protobuf", "").get(5, TimeUnit.SECONDS).accepted());
    }

    private static final class IgnoringSink implements BridgeSession.Sink {
        @Override
        public void pushed(org.salgate.wire.Message message) {
        }

        @Override
        public void closed(boolean byAgent) {
        }
    }
}
