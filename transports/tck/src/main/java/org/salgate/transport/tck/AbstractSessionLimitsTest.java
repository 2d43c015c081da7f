package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.SalClient;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.wire.Codecs;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Message;

/**
 * The sessions' budget ({@link ServerOptions.Limits}) on the real agent and client over the
 * transport under test: past {@code maxSessions} a client is refused OVERLOADED while the others
 * keep being served; a connection that never says hello is closed after the hello timeout; an idle
 * session is closed after the idle timeout, one with a stream is not. The limits are small here so
 * the tests are quick. A transport's test extends this class and implements {@link #provider()};
 * byte-stream transports extend {@link AbstractFramedSessionLimitsTest}, which adds what raw frames
 * can do.
 */
public abstract class AbstractSessionLimitsTest {

    /** The hello timeout of the tests that wait for it. */
    protected static final Duration SHORT = Duration.ofMillis(600);
    /** The idle timeout: longer, so that a client busy setting up its stream on a loaded machine is not idle. */
    private static final Duration IDLE = Duration.ofMillis(1500);

    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());

    /** The transport under test. */
    protected abstract TransportProvider provider();

    @AfterEach
    void closeEverything() throws Exception {
        List<AutoCloseable> toClose = new ArrayList<>(resources);
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    /** Starts an agent with two dummy sensors and these limits. */
    protected Agent agent(Consumer<ServerOptions.Builder> limits) throws IOException {
        Agent a = Agent.builder().transport(provider()).host("127.0.0.1").port(0).agentId("limits-agent")
                .platform(new PlatformConfig(List.of(new ProtocolConfig("dummy", "dummy", "virtual",
                        Map.of("sensors", "2"))))).serverOptions(limits).start();
        resources.add(a::close);
        return a;
    }

    /** Connects a client; refusals are thrown. */
    protected SalClient client(Agent agent, String name) throws IOException {
        SalClient c = SalClient.builder().transport(provider()).host("127.0.0.1").port(agent.port()).clientName(name)
                .connectTimeout(Duration.ofSeconds(5)).requestTimeout(Duration.ofSeconds(20)).connect();
        resources.add(c);
        return c;
    }

    /** Whether the client still gets answers. */
    protected static void assertServed(SalClient client) {
        assertEquals(2, Await.result("sensors of " + client, client.listSensors()).size());
    }

    @Test
    @Timeout(60)
    void pastMaxSessionsANewClientIsRefusedOverloadedWhileTheOthersKeepBeingServed() throws Exception {
        Agent agent = agent(o -> o.maxSessions(2));
        SalClient first = client(agent, "first");
        SalClient second = client(agent, "second");

        HelloRefusedException refused = assertThrows(HelloRefusedException.class, () -> client(agent, "third"),
                "a third client was let in past --max-sessions 2");
        assertEquals(ErrorCode.OVERLOADED, refused.code());
        assertTrue(refused.reason().contains("maximum of 2 sessions"), refused.getMessage());

        assertServed(first);
        assertServed(second);
        assertEquals(2, agent.sessionCount());

        second.close();
        Await.until("the closed client's slot to be free", () -> agent.sessionCount() == 1);
        assertServed(client(agent, "after"));
        assertServed(first);
    }

    @Test
    @Timeout(60)
    void aConnectionThatNeverSaysHelloIsClosedAfterTheHelloTimeoutAndAGreetedOneIsNot() throws Exception {
        Agent agent = agent(o -> o.helloTimeout(SHORT));
        SalClient greeted = client(agent, "greeted");

        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        TransportClient silent = provider().createClient(ClientOptions.builder().host("127.0.0.1")
                .port(agent.port()).codec(Codecs.defaultCodec()).build());
        resources.add(silent);
        long start = System.nanoTime();
        silent.connect(new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                closed.completeExceptionally(new AssertionError("the agent sent " + message + " without a hello"));
            }

            @Override
            public void closed(Throwable cause) {
                closed.complete(cause);
            }
        });
        Await.result("the agent to close a connection that sent no hello", Duration.ofSeconds(15), closed);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= SHORT.toMillis() - 50, "closed after " + millis + " ms, before the hello timeout");
        assertFalse(silent.isOpen());

        assertTrue(greeted.isOpen(), "the hello timeout closed a client that had said hello");
        assertServed(greeted);
    }

    @Test
    @Timeout(60)
    void anIdleSessionIsClosedAfterTheIdleTimeoutAndOneWithAStreamIsNot() throws Exception {
        Agent agent = agent(o -> o.idleTimeout(IDLE));
        SalClient streaming = client(agent, "streaming");
        RecordingStreamListener readings = RecordingStreamListener.fast("kept");
        Await.result("a stream", streaming.stream("DUMMY_0", "read", Map.of(), 50, readings));
        SalClient idle = client(agent, "idle");
        assertServed(idle);

        Await.result("the agent to close the idle session", Duration.ofSeconds(15), idle.closeFuture()
                .handle((ok, failure) -> true));
        assertFalse(idle.isOpen());

        Thread.sleep(2 * IDLE.toMillis());
        assertTrue(streaming.isOpen(), "the idle timeout closed a session with a stream");
        long before = readings.received();
        Await.until("the stream to go on", () -> readings.received() > before);
        assertServed(streaming);
        assertEquals(1, agent.sessionCount());
    }
}
