package org.salgate.agent.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** An agent on the fake transport, and helpers to talk to it through fake sessions. */
public final class AgentFixture implements AutoCloseable {

    /** How long any wait in a test may take before it fails. */
    public static final long WAIT_MS = 10_000;

    private static final AtomicLong REQUEST_IDS = new AtomicLong(1);

    public final Agent agent;
    public final FakeTransport transport;

    private AgentFixture(Agent agent, FakeTransport transport) {
        this.agent = agent;
        this.transport = transport;
    }

    /** The platform most tests use: protocol "test" of type test with sensors T_0..T_{n-1}. */
    public static PlatformConfig testPlatform(int sensors, Map<String, String> extra) {
        Map<String, String> p = new java.util.HashMap<>(extra);
        p.put("sensors", Integer.toString(sensors));
        return new PlatformConfig(List.of(new ProtocolConfig("test", "test", "virtual", p)));
    }

    public static AgentFixture start(PlatformConfig platform) throws Exception {
        return start(platform, b -> { });
    }

    public static AgentFixture start(PlatformConfig platform, Consumer<AgentBuilder> tweak) throws Exception {
        FakeTransport transport = new FakeTransport();
        AgentBuilder b = Agent.builder().transport(transport).port(0).platform(platform).agentId("test-agent")
                .pluginClassLoader(AgentFixture.class.getClassLoader());
        tweak.accept(b);
        return new AgentFixture(b.start(), transport);
    }

    /** A new session that has completed its hello. */
    public FakeSession connect() throws InterruptedException {
        return connect(Integer.MAX_VALUE);
    }

    /** A new greeted session that turns unwritable with {@code capacity} unread frames. */
    public FakeSession connect(int capacity) throws InterruptedException {
        FakeSession s = transport.server().open(capacity);
        transport.server().handler().messageReceived(s, Hello.of("protobuf", "test-client"));
        HelloReply reply = s.await(HelloReply.class, r -> true, 1, WAIT_MS).get(0);
        assertTrue(reply.accepted(), () -> "hello refused: " + reply.error());
        return s;
    }

    /** Sends a request without waiting; returns its id. */
    public long send(FakeSession s, Call call) {
        long id = REQUEST_IDS.getAndIncrement();
        transport.server().handler().messageReceived(s, new Request(id, call));
        return id;
    }

    /** The response to a request sent earlier. */
    public Result response(FakeSession s, long id) throws InterruptedException {
        return s.await(Response.class, r -> r.id() == id, 1, WAIT_MS).get(0).result();
    }

    /** Sends a request and waits for its response. */
    public Result call(FakeSession s, Call call) throws InterruptedException {
        return response(s, send(s, call));
    }

    /** Sends a request that must succeed with a result of {@code type}. */
    public <T extends Result> T ok(FakeSession s, Call call, Class<T> type) throws InterruptedException {
        Result r = call(s, call);
        if (r instanceof Result.Failure f) {
            fail(call + " failed: " + f.code() + " " + f.message());
        }
        return assertInstanceOf(type, r);
    }

    /** Sends a request that must fail with {@code code}; returns the failure. */
    public Result.Failure fails(FakeSession s, Call call, ErrorCode code) throws InterruptedException {
        Result r = call(s, call);
        Result.Failure f = assertInstanceOf(Result.Failure.class, r, () -> call + " should fail with " + code);
        assertEquals(code, f.code(), f.message());
        return f;
    }

    /** Sets up and starts a stream; returns its id. */
    public long stream(FakeSession s, String sensor, String command, long intervalMs) throws InterruptedException {
        long id = ok(s, new Call.SetupStream(sensor, command, Map.of(), intervalMs), Result.StreamHandle.class)
                .streamId();
        ok(s, new Call.StartStream(id), Result.Ack.class);
        return id;
    }

    /** Waits until a stream has delivered {@code n} frames; returns them all. */
    public static List<StreamData> frames(FakeSession s, long streamId, int n) throws InterruptedException {
        return s.await(StreamData.class, d -> d.streamId() == streamId, n, WAIT_MS);
    }

    /** Checks that a stream's readings are numbered 0, 1, 2... */
    public static void assertContiguous(List<StreamData> frames) {
        for (int i = 0; i < frames.size(); i++) {
            assertEquals(i, frames.get(i).reading().sequence(), "sequence number of frame " + i);
        }
    }

    /** The reading of an execute call that must succeed. */
    public Reading execute(FakeSession s, String sensor, String command, Map<String, String> args)
            throws InterruptedException {
        return ok(s, new Call.Execute(sensor, command, args), Result.ReadingResult.class).reading();
    }

    @Override
    public void close() {
        agent.close();
    }
}
