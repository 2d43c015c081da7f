package org.salgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.client.inmemory.InMemoryTransport;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.model.Result;

/**
 * The documents the agent answers are parsed and validated off the transport's thread, over every
 * transport: a dependent stage added before the answer arrives runs on the thread that completes
 * its future, so it names the thread that delivered the answer (for the raw XML) and the one that
 * parsed it (for the parsed description).
 */
@Timeout(60)
class DocumentParsingThreadTest {

    private static final SensorDescription DESCRIPTION = new SensorDescription("DUMMY_0", "dummy sensor", "dummy", "",
            List.of(Output.quantity("value", "http://example.org/value", "Cel")), SamplingBounds.ANY);
    private static final CommandDescription COMMAND = CommandDescription.builder("read").response("decimal", "Cel")
            .streaming(SamplingBounds.ANY).build();

    // Not rmi: its send is a remote call that runs the agent's handler before it returns, so the
    // agent cannot hold an answer while the sending thread goes on to add the stages.
    @ParameterizedTest
    @ValueSource(strings = {InMemoryTransport.NAME, "netty", "mina", "xsocket", "socket"})
    void describeAndCommandsAreParsedOffTheTransportThread(String name) throws Exception {
        TransportProvider transport = Transports.available().get(name);
        assertNotNull(transport, name + " is on the client's test class path");
        // The agent holds its answers until every stage below is in place.
        CountDownLatch stagesAdded = new CountDownLatch(1);
        String sensorMl = SensorMl.write(DESCRIPTION);
        String cml = Cml.write(List.of(COMMAND));
        try (FakeAgent agent = FakeAgent.start(transport.getClass().getDeclaredConstructor().newInstance())
                .answer(Call.DescribeSensor.class, c -> new Result.Document(await(stagesAdded, sensorMl)))
                .answer(Call.ListCommands.class, c -> new Result.Document(await(stagesAdded, cml)));
             SalClient client = SalClient.builder().transport(name).port(agent.port()).connect()) {
            CompletableFuture<Thread> answerDelivered = client.describeSensorXml("DUMMY_0").thenApply(x -> current());
            CompletableFuture<Thread> described = client.describeSensor("DUMMY_0").thenApply(d -> {
                assertEquals(DESCRIPTION.id(), d.id());
                return current();
            });
            CompletableFuture<Thread> commandsListed = client.listCommands("DUMMY_0").thenApply(c -> {
                assertEquals("read", c.get(0).id());
                return current();
            });
            stagesAdded.countDown();

            Thread transportThread = answerDelivered.get(30, TimeUnit.SECONDS);
            for (Thread parser : List.of(described.get(30, TimeUnit.SECONDS), commandsListed.get(30, TimeUnit.SECONDS))) {
                assertNotSame(transportThread, parser, "parsed on the thread that delivered the answer");
                assertTrue(parser.getName().startsWith(ClientThreads.DOCUMENTS),
                        "parsed on " + parser.getName() + ", not on the client's document threads");
            }
        }
    }

    private static Thread current() {
        return Thread.currentThread();
    }

    private static String await(CountDownLatch latch, String answer) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the answer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return answer;
    }
}
