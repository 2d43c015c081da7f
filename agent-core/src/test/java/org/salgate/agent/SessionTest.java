package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.agent.testing.TestPlugin;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

@Timeout(30)
class SessionTest {

    private AgentFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
        TestPlugin.RELEASE = new CountDownLatch(0);
    }

    @Test
    void requestBeforeHelloClosesTheSession() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.transport.server().open();
        fixture.transport.server().handler().messageReceived(s, new Request(1, new Call.ListSensors(false)));
        assertFalse(s.isOpen());
        assertTrue(s.sent().isEmpty(), "nothing is answered before the hello");
    }

    @Test
    void helloWithWrongVersionIsRefusedWithAReason() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.transport.server().open();
        fixture.transport.server().handler().messageReceived(s, new Hello(99, "protobuf", "old", ""));
        HelloReply reply = (HelloReply) s.sent().get(0);
        assertFalse(reply.accepted());
        assertTrue(reply.error().contains("version 99"), reply.error());
        assertFalse(s.isOpen());
    }

    @Test
    void helloWithAnotherCodecIsRefusedNamingTheAgentsCodec() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.transport.server().open();
        fixture.transport.server().handler().messageReceived(s, Hello.of("json", "c"));
        HelloReply reply = (HelloReply) s.sent().get(0);
        assertFalse(reply.accepted());
        assertTrue(reply.error().contains("'json'") && reply.error().contains("'protobuf'"), reply.error());
        assertFalse(s.isOpen());
    }

    @Test
    void acceptedHelloCarriesTheAgentId() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        HelloReply reply = (HelloReply) s.sent().get(0);
        assertEquals("test-agent", reply.agentId());
        assertTrue(s.isOpen());
    }

    @Test
    void theEchoProbesAreRefusedAsUnsupportedSayingWhatToCallAndTheSessionGoesOn() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        Result.Failure echo = fixture.fails(s, new Call.Echo(Value.of(new byte[] {1, 2, 3})), ErrorCode.UNSUPPORTED);
        assertTrue(echo.message().contains("'echo' is a transport-level probe"), echo.message());
        assertTrue(echo.message().contains("list its sensors"), echo.message());
        var reading = org.salgate.model.Reading.ok("X", 5, 7, Value.of(1.5));
        Result.Failure echoReading = fixture.fails(s, new Call.EchoReading(reading), ErrorCode.UNSUPPORTED);
        assertTrue(echoReading.message().contains("'echo reading' is a transport-level probe"), echoReading.message());
        assertEquals(1, fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors().size());
        assertTrue(s.isOpen());
    }

    @Test
    void fullWorkerPoolAnswersOverloadedAndRecovers() throws Exception {
        TestPlugin.RELEASE = new CountDownLatch(1);
        fixture = AgentFixture.start(AgentFixture.testPlatform(2, Map.of("blocking", "T_0")),
                b -> b.workerThreads(1).maxQueuedRequests(1));
        FakeSession s = fixture.connect();
        long first = fixture.send(s, new Call.Execute("T_0", "read", Map.of()));
        long queued = fixture.send(s, new Call.Execute("T_1", "read", Map.of()));
        long rejected = fixture.send(s, new Call.Execute("T_1", "read", Map.of()));
        Result r = fixture.response(s, rejected);
        assertEquals(ErrorCode.OVERLOADED, ((Result.Failure) r).code());
        TestPlugin.RELEASE.countDown();
        assertTrue(fixture.response(s, first) instanceof Result.ReadingResult);
        assertTrue(fixture.response(s, queued) instanceof Result.ReadingResult);
        fixture.execute(s, "T_1", "read", Map.of());
    }

    @Test
    void aClientPastAMaximumOfOneSessionIsToldItInTheSingular() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), b -> b.serverOptions(o -> o.maxSessions(1)));
        fixture.connect();
        FakeSession second = fixture.transport.server().open(Integer.MAX_VALUE);
        fixture.transport.server().handler().messageReceived(second, Hello.of("protobuf", "second"));
        HelloReply reply = second.await(HelloReply.class, r -> true, 1, AgentFixture.WAIT_MS).get(0);
        assertEquals("the agent serves its maximum of 1 session; retry later", reply.error());
    }

    @Test
    void closingTheAgentClosesSessionsAndIsIdempotent() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        long stream = fixture.stream(s, "T_0", "read", 5);
        fixture.agent.close();
        fixture.agent.close();
        assertFalse(s.isOpen());
        List<org.salgate.wire.StreamEnded> ended = s.sent(org.salgate.wire.StreamEnded.class,
                e -> e.streamId() == stream);
        assertEquals(1, ended.size(), "the client hears its stream ended");
        assertTrue(fixture.transport.server().isClosed());
        assertEquals(0, fixture.agent.streamCount());
    }

    @Test
    void responsesCarryTheRequestId() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        long id = fixture.send(s, new Call.ListProtocols());
        assertEquals(1, s.await(Response.class, r -> r.id() == id, 1, AgentFixture.WAIT_MS).size());
    }
}
