package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.agent.testing.AgentFixture.frames;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

@Timeout(30)
class SharedStreamTest {

    private AgentFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(3, Map.of()));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private long subscribe(FakeSession s, String sensor, long intervalMs, SlowConsumerPolicy policy)
            throws InterruptedException {
        long id = setUp(s, sensor, intervalMs, policy);
        fixture.ok(s, new Call.StartStream(id), Result.Ack.class);
        return id;
    }

    private long setUp(FakeSession s, String sensor, long intervalMs, SlowConsumerPolicy policy)
            throws InterruptedException {
        return fixture.ok(s, new Call.SetupStream(sensor, "read", Map.of(), intervalMs, policy, true),
                Result.StreamHandle.class).streamId();
    }

    /** Checks that each frame's sequence is one above the frame before it, whatever the first. */
    private static void assertContiguousFromFirst(List<StreamData> frames) {
        for (int i = 1; i < frames.size(); i++) {
            assertEquals(frames.get(0).reading().sequence() + i, frames.get(i).reading().sequence(),
                    "sequence number of frame " + i);
        }
    }

    @Test
    void subscribersOfASharedStreamGetTheSameReadingsUnderOneStreamId() throws Exception {
        List<FakeSession> sessions = List.of(fixture.connect(), fixture.connect(), fixture.connect());
        List<Long> ids = new ArrayList<>();
        for (FakeSession s : sessions) {
            ids.add(subscribe(s, "T_0", 2, null));
        }
        assertEquals(Set.of(ids.get(0)), Set.copyOf(ids), "one stream id for every subscriber");
        long id = ids.get(0);
        List<List<StreamData>> got = new ArrayList<>();
        for (FakeSession s : sessions) {
            List<StreamData> frames = frames(s, id, 20);
            assertContiguousFromFirst(frames);
            got.add(frames);
        }
        // The last subscriber's first reading went to all three: it is one object, read and numbered once.
        StreamData last = got.get(2).get(0);
        for (List<StreamData> frames : got) {
            StreamData same = frames.stream().filter(d -> d.reading().sequence() == last.reading().sequence())
                    .findFirst().orElseThrow();
            assertSame(last, same);
        }
        assertEquals(1, fixture.agent.sharedStreamCount());
    }

    @Test
    void eachReadingOfASharedStreamIsEncodedOnceForAllItsSubscribers() throws Exception {
        List<FakeSession> sessions = new ArrayList<>();
        long id = 0;
        for (int i = 0; i < 20; i++) {
            FakeSession s = fixture.connect();
            sessions.add(s);
            id = subscribe(s, "T_1", 2, null);
        }
        frames(sessions.get(19), id, 30);
        for (FakeSession s : sessions) {
            fixture.ok(s, new Call.StopStream(id), Result.StreamStopped.class);
        }
        long delivered = 0;
        Set<Long> readings = new TreeSet<>();
        for (FakeSession s : sessions) {
            List<StreamData> frames = s.sent(StreamData.class, d -> true);
            delivered += frames.size();
            frames.forEach(d -> readings.add(d.reading().sequence()));
        }
        long encoded = fixture.agent.streamFramesEncoded(); // this agent's only stream
        assertEquals(readings.size(), encoded, "frames encoded: one per reading taken, for " + delivered
                + " frames delivered to 20 subscribers");
        assertTrue(delivered >= 20L * 30 - 20 * 19, "delivered " + delivered);
        long bytes = sessions.get(0).bytesSent();
        assertTrue(bytes > 0);
    }

    @Test
    void aLaterSubscriberStartsAtTheSharedStreamsNextReading() throws Exception {
        FakeSession first = fixture.connect();
        long id = subscribe(first, "T_0", 2, null);
        frames(first, id, 15);
        FakeSession later = fixture.connect();
        assertEquals(id, subscribe(later, "T_0", 2, null));
        List<StreamData> got = frames(later, id, 10);
        assertTrue(got.get(0).reading().sequence() >= 15, "first sequence " + got.get(0).reading().sequence());
        assertContiguousFromFirst(got);
    }

    @Test
    void aSharedStreamIsOneCommandWithOneSetOfArgumentsAtOneInterval() throws Exception {
        FakeSession a = fixture.connect();
        FakeSession b = fixture.connect();
        long fast = setUp(a, "T_0", 5, null);
        assertEquals(fast, setUp(b, "T_0", 5, SlowConsumerPolicy.DROP_OLDEST), "the policy is each subscriber's own");
        assertNotEquals(fast, setUp(b, "T_0", 10, null));
        assertNotEquals(fast, setUp(b, "T_1", 5, null));
        long own = fixture.ok(b, new Call.SetupStream("T_0", "read", Map.of(), 5), Result.StreamHandle.class)
                .streamId();
        assertNotEquals(fast, own, "a stream of the client's own is never shared");
        assertEquals(3, fixture.agent.sharedStreamCount());
    }

    @Test
    void aSharedStreamNeedsAnIntervalAboveZero() throws Exception {
        FakeSession s = fixture.connect();
        Result.Failure f = fixture.fails(s, new Call.SetupStream("T_0", "read", Map.of(), 0, null, true),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(f.message().contains("interval above 0"), f.message());
    }

    @Test
    void aConnectionJoinsASharedStreamOnce() throws Exception {
        FakeSession s = fixture.connect();
        long id = setUp(s, "T_0", 5, null);
        Result.Failure f = fixture.fails(s, new Call.SetupStream("T_0", "read", Map.of(), 5, null, true),
                ErrorCode.CONFLICT);
        assertTrue(f.message().contains("shared stream " + id), f.message());
    }

    @Test
    void aSubscriberThatStopsLeavesTheOthersStreamingAndTheLastOneClosesIt() throws Exception {
        FakeSession a = fixture.connect();
        FakeSession b = fixture.connect();
        long id = subscribe(a, "T_0", 2, null);
        subscribe(b, "T_0", 2, null);
        frames(a, id, 5);
        Result.StreamStopped stopped = fixture.ok(a, new Call.StopStream(id), Result.StreamStopped.class);
        int aHas = a.sent(StreamData.class, d -> true).size();
        assertEquals(aHas, stopped.counts().delivered(), "the counts are the subscriber's own");
        int bHas = b.sent(StreamData.class, d -> true).size();
        frames(b, id, bHas + 10);
        assertEquals(aHas, a.sent(StreamData.class, d -> true).size(), "nothing after the stop");
        assertEquals(1, fixture.agent.sharedStreamCount());

        b.close();
        waitForNoSharedStream();
        FakeSession c = fixture.connect();
        long again = subscribe(c, "T_0", 2, null);
        assertNotEquals(id, again, "a new shared stream once the last subscriber left");
        assertEquals(0, frames(c, again, 1).get(0).reading().sequence());
    }

    @Test
    void aSubscriberThatDoesNotReadSkipsReadingsWithoutHoldingUpTheOthers() throws Exception {
        int capacity = 3;
        FakeSession slow = fixture.connect(capacity);
        FakeSession fast = fixture.connect();
        long id = subscribe(slow, "T_0", 2, SlowConsumerPolicy.BLOCK);
        subscribe(fast, "T_0", 2, null);
        List<StreamData> fastFrames = frames(fast, id, 60);
        assertContiguousFromFirst(fastFrames);
        int slowCount = slow.sent(StreamData.class, d -> true).size();
        assertTrue(slowCount <= capacity + 1, "a client that does not read gets at most its buffer: " + slowCount);
        assertTrue(slow.sentWhileUnwritable() <= 1);

        slow.drain();
        List<StreamData> after = slow.await(StreamData.class, d -> true, slowCount + 1, AgentFixture.WAIT_MS);
        long jump = after.get(slowCount).reading().sequence() - after.get(slowCount - 1).reading().sequence();
        assertTrue(jump > 1, "the readings it missed show as a gap of " + jump);
        Result.StreamStopped stopped = fixture.ok(slow, new Call.StopStream(id), Result.StreamStopped.class);
        assertTrue(stopped.counts().skipped() > 0, "skipped " + stopped.counts());
    }

    @Test
    void aDropOldestSubscriberKeepsTheNewestReadingsInItsRing() throws Exception {
        FakeSession slow = fixture.connect(2);
        FakeSession fast = fixture.connect();
        long id = subscribe(slow, "T_0", 2, SlowConsumerPolicy.DROP_OLDEST);
        subscribe(fast, "T_0", 2, null);
        frames(fast, id, 200);
        int before = slow.sent(StreamData.class, d -> true).size();
        slow.drain();
        List<StreamData> got = slow.await(StreamData.class, d -> true, before + 1, AgentFixture.WAIT_MS);
        Result.StreamStopped stopped = fixture.ok(slow, new Call.StopStream(id), Result.StreamStopped.class);
        assertTrue(stopped.counts().dropped() > 0, "dropped " + stopped.counts());
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i).reading().sequence() > got.get(i - 1).reading().sequence(), "in order");
        }
    }

    @Test
    void removingTheSensorEndsEverySubscriberWithAReason() throws Exception {
        FakeSession a = fixture.connect();
        FakeSession b = fixture.connect();
        long id = subscribe(a, "T_2", 2, null);
        subscribe(b, "T_2", 2, null);
        frames(a, id, 3);
        fixture.ok(a, new Call.RemoveSensor("T_2"), Result.Ack.class);
        for (FakeSession s : List.of(a, b)) {
            StreamEnded ended = s.await(StreamEnded.class, e -> e.streamId() == id, 1, AgentFixture.WAIT_MS).get(0);
            assertTrue(ended.reason().contains("T_2"), ended.reason());
        }
        waitForNoSharedStream();
    }

    private void waitForNoSharedStream() throws InterruptedException {
        long deadline = System.currentTimeMillis() + AgentFixture.WAIT_MS;
        while (fixture.agent.sharedStreamCount() != 0) {
            assertTrue(System.currentTimeMillis() < deadline, "the shared stream did not close");
            Thread.sleep(10);
        }
    }
}
