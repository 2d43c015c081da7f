package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.wire.ErrorCode;
import org.salgate.wire.Reading;
import org.salgate.wire.StreamCounts;

/**
 * Clients of a real agent joining its shared stream of a command: one stream id and one set of
 * readings for all of them, a later subscriber starting where the shared stream is, each stopping
 * only itself with its own counts, and the agent's refusals (interval 0, a second join on one
 * connection).
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

    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "socket"})
    void aLaterSubscriberGetsTheSharedStreamsIdAndReadingsFromWhereItIs(String transport) throws Exception {
        startAgent(transport);
        Seen first = new Seen();
        Seen later = new Seen();
        SensorStream firstStream = join(client(transport), first);
        Await.until("5 readings at the first subscriber", () -> first.sequences.size() >= 5);

        SensorStream laterStream = join(client(transport), later);
        assertEquals(firstStream.id(), laterStream.id(), "every subscriber sees the shared stream's id");
        assertTrue(laterStream.shared());
        Await.until("5 readings at the later subscriber", () -> later.sequences.size() >= 5);
        long joinedAt = later.sequences.get(0);
        assertTrue(joinedAt >= 5, "the shared stream was past 5 readings when the later one joined, its first was #"
                + joinedAt);
        assertFalse(later.afterGaps.contains(joinedAt), "the readings before it joined are no gap");

        long fifth = later.sequences.get(4);
        Await.until("the first subscriber to pass the later one's fifth reading",
                () -> first.sequences.get(first.sequences.size() - 1) >= fifth);
        int common = 0;
        for (long sequence : later.sequences) {
            Reading mine = first.bySequence.get(sequence);
            if (mine != null) {
                assertEquals(mine, later.bySequence.get(sequence), "one reading per tick for every subscriber");
                common++;
            }
        }
        assertTrue(common > 0, "the two subscribers got no reading in common");

        Await.result("stopping the later subscriber", laterStream.stop());
        StreamCounts counts = Await.result("the later subscriber's counts", laterStream.counts());
        assertEquals(later.sequences.size(), counts.delivered(), "the counts are the later subscriber's own");
        int before = first.sequences.size();
        Await.until("the first subscriber to go on after the later one stopped",
                () -> first.sequences.size() >= before + 3);
        assertFalse(firstStream.counts().isDone(), "stopping one subscriber ended another");
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
