package org.salgate.agent.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;

/** The agent's reply to an accepted hello names the role it gave the session. */
@Timeout(30)
class HelloRoleTest {

    private static final String ADMIN = "admin-token-0123456789";
    private static final String READER = "reader-token-0123456789";
    private static final Consumer<AgentBuilder> WITH_TOKENS =
            b -> b.tokens(Tokens.parse(List.of(ADMIN + " admin", READER + " reader"), "test"));

    private AgentFixture fixture;

    @AfterEach
    void tearDown() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private HelloReply helloWith(String token) throws Exception {
        FakeSession s = fixture.transport.server().open(Integer.MAX_VALUE);
        fixture.transport.server().handler().messageReceived(s,
                new Hello(Hello.PROTOCOL_VERSION, "protobuf", "test-client", token));
        return s.await(HelloReply.class, r -> true, 1, AgentFixture.WAIT_MS).get(0);
    }

    @Test
    void aReaderTokensSessionIsGivenTheReaderRoleAndAnAdminTokensTheAdminRole() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), WITH_TOKENS);
        HelloReply reader = helloWith(READER);
        assertTrue(reader.accepted(), reader.error());
        assertEquals("reader", reader.role());
        HelloReply admin = helloWith(ADMIN);
        assertTrue(admin.accepted(), admin.error());
        assertEquals("admin", admin.role());
    }

    @Test
    void aRefusedHelloNamesNoRole() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), WITH_TOKENS);
        HelloReply refused = helloWith("wrong-token-0123456789");
        assertFalse(refused.accepted());
        assertEquals("", refused.role());
    }

    @Test
    void everySessionOfAnAgentWithoutTokensIsGivenTheAdminRole() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        HelloReply reply = helloWith("");
        assertTrue(reply.accepted(), reply.error());
        assertEquals("admin", reply.role());
    }
}
