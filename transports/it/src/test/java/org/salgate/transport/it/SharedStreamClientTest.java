package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.model.ErrorCode;
import org.salgate.model.Reading;

/**
 * A real agent's refusals of shared streams, as a client sees them: interval 0, and a second join on
 * one connection. (What every subscriber gets, on every transport, is in the agent conformance suite.)
 */
@Timeout(60)
class SharedStreamClientTest {

    private static final long INTERVAL_MS = 20;

    private Agent agent;
    private final List<SalClient> clients = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (SalClient client : clients) {
            client.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    private void startAgent(String transport) throws Exception {
        agent = Agent.builder().transport(transport).host("127.0.0.1").port(0).agentId("shared-" + transport).start();
    }

    private SalClient client(String transport) throws Exception {
        SalClient client = SalClient.builder().transport(transport).port(agent.port())
                .clientName("shared-" + clients.size()).connect();
        clients.add(client);
        return client;
    }

    /** The readings a subscriber got, by sequence and in order, and the sequences that followed a gap. */
    private static final class Seen implements StreamListener {
        final List<Long> sequences = new CopyOnWriteArrayList<>();
        final Map<Long, Reading> bySequence = new ConcurrentHashMap<>();
        final List<Long> afterGaps = new CopyOnWriteArrayList<>();

        @Override
        public void onReading(Reading reading) {
            sequences.add(reading.sequence());
            bySequence.put(reading.sequence(), reading);
        }

        @Override
        public void onGap(long missed, long nextSequence) {
            afterGaps.add(nextSequence);
        }
    }

    private static SensorStream join(SalClient client, Seen listener) {
        return Await.result("joining the shared stream",
                client.stream("DUMMY_0", "read", null, INTERVAL_MS, null, true, listener));
    }

    @Test
    void theAgentRefusesASharedStreamAtIntervalZeroInItsOwnWords() throws Exception {
        startAgent("netty");
        Throwable refused = Await.failure("a shared stream at interval 0", Duration.ofSeconds(20),
                client("netty").stream("DUMMY_0", "read", null, 0, null, true, r -> { }));
        assertEquals(ErrorCode.INVALID_ARGUMENT, assertInstanceOf(SalException.class, refused).code());
    }

    @Test
    void aSecondJoinOnOneConnectionIsAConflictAndTheFirstGoesOn() throws Exception {
        startAgent("netty");
        SalClient client = client("netty");
        Seen first = new Seen();
        SensorStream stream = join(client, first);
        Throwable refused = Await.failure("a second join on one connection", Duration.ofSeconds(20),
                client.stream("DUMMY_0", "read", null, INTERVAL_MS, null, true, r -> { }));
        assertEquals(ErrorCode.CONFLICT, assertInstanceOf(SalException.class, refused).code());

        int before = first.sequences.size();
        Await.until("the joined stream to go on", () -> first.sequences.size() >= before + 3);
        assertFalse(stream.counts().isDone());
    }
}
