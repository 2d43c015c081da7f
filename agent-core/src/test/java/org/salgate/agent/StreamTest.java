package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.agent.testing.AgentFixture.assertContiguous;
import static org.salgate.agent.testing.AgentFixture.frames;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.FakeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;

@Timeout(30)
class StreamTest {

    private AgentFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(3, Map.of("throwing", "T_1")));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void periodicStreamDeliversReadingsNumberedWithoutGaps() throws Exception {
        FakeSession s = fixture.connect();
        long id = fixture.stream(s, "T_0", "read", 1);
        List<StreamData> got = frames(s, id, 20);
        assertContiguous(got);
        assertTrue(got.stream().allMatch(d -> d.reading().sensorId().equals("T_0")
                && d.reading().status() == Reading.Status.OK));
    }

    @Test
    void intervalZeroStreamsAsFastAsTheClientTakesThem() throws Exception {
        FakeSession s = fixture.connect();
        long id = fixture.stream(s, "T_0", "read", 0);
        assertContiguous(frames(s, id, 1000));
    }

    @Test
    void intervalBelowTheCommandMinimumIsRefusedNamingTheBounds() throws Exception {
        FakeSession s = fixture.connect();
        Result.Failure f = fixture.fails(s, new Call.SetupStream("T_0", "slow", Map.of(), 10),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(f.message().contains("100") && f.message().contains("10000"), f.message());
        fixture.fails(s, new Call.SetupStream("T_0", "slow", Map.of(), 20_000), ErrorCode.INVALID_ARGUMENT);
        fixture.fails(s, new Call.SetupStream("T_0", "read", Map.of(), -1), ErrorCode.INVALID_ARGUMENT);
        fixture.ok(s, new Call.SetupStream("T_0", "slow", Map.of(), 100), Result.StreamHandle.class);
    }

    @Test
    void commandThatCannotStreamIsRefused() throws Exception {
        FakeSession s = fixture.connect();
        fixture.fails(s, new Call.SetupStream("T_0", "once", Map.of(), 100), ErrorCode.UNSUPPORTED);
    }

    @Test
    void streamDoesNotRunBeforeStartAndCannotStartTwice() throws Exception {
        FakeSession s = fixture.connect();
        long id = fixture.ok(s, new Call.SetupStream("T_0", "read", Map.of(), 1), Result.StreamHandle.class)
                .streamId();
        fixture.ok(s, new Call.ListProtocols(), Result.Protocols.class);
        assertTrue(s.sent(StreamData.class, d -> d.streamId() == id).isEmpty());
        fixture.ok(s, new Call.StartStream(id), Result.Ack.class);
        fixture.fails(s, new Call.StartStream(id), ErrorCode.CONFLICT);
        frames(s, id, 3);
    }

    @Test
    void startAnswerIsSentBeforeTheStreamsFirstFrame() throws Exception {
        FakeSession s = fixture.connect();
        for (int i = 0; i < 20; i++) {
            long id = fixture.ok(s, new Call.SetupStream("T_0", "read", Map.of(), 0), Result.StreamHandle.class)
                    .streamId();
            long request = fixture.send(s, new Call.StartStream(id));
            frames(s, id, 1);
            List<Message> sent = s.sent();
            int answer = -1;
            int firstFrame = -1;
            for (int k = 0; k < sent.size(); k++) {
                Message m = sent.get(k);
                if (answer < 0 && m instanceof Response r && r.id() == request) {
                    answer = k;
                }
                if (firstFrame < 0 && m instanceof StreamData d && d.streamId() == id) {
                    firstFrame = k;
                }
            }
            assertTrue(answer >= 0 && answer < firstFrame,
                    "start answer at " + answer + " must precede the first frame at " + firstFrame);
            fixture.ok(s, new Call.StopStream(id), Result.StreamStopped.class);
        }
    }

    @Test
    void unknownStreamOrAnotherSessionsStreamIsRefused() throws Exception {
        FakeSession a = fixture.connect();
        FakeSession b = fixture.connect();
        long id = fixture.stream(a, "T_0", "read", 50);
        fixture.fails(b, new Call.StopStream(id), ErrorCode.UNKNOWN_STREAM);
        fixture.fails(b, new Call.StartStream(id), ErrorCode.UNKNOWN_STREAM);
        fixture.fails(a, new Call.StopStream(999_999), ErrorCode.UNKNOWN_STREAM);
    }

    @Test
    void throwingPluginGivesErrorReadingsWhileTheStreamAndOtherSensorsContinue() throws Exception {
        FakeSession s = fixture.connect();
        long bad = fixture.stream(s, "T_1", "read", 0);
        long good = fixture.stream(s, "T_0", "read", 1);
        List<StreamData> badFrames = frames(s, bad, 200);
        assertContiguous(badFrames);
        assertTrue(badFrames.stream().allMatch(d -> d.reading().status() == Reading.Status.ERROR
                && d.reading().error().contains("boom")));
        List<StreamData> goodFrames = frames(s, good, 10);
        assertTrue(goodFrames.stream().allMatch(d -> d.reading().status() == Reading.Status.OK));
    }

    @Test
    void noFrameFollowsTheStopResponse() throws Exception {
        FakeSession s = fixture.connect();
        long id = fixture.stream(s, "T_0", "read", 0);
        frames(s, id, 100);
        long stop = fixture.send(s, new Call.StopStream(id));
        fixture.response(s, stop);
        // Let the scheduler run many more tasks: another stream must deliver plenty after the stop.
        long other = fixture.stream(s, "T_2", "read", 0);
        frames(s, other, 500);
        List<Message> all = s.sent();
        int stopAt = -1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) instanceof Response r && r.id() == stop) {
                stopAt = i;
            }
        }
        assertTrue(stopAt > 0);
        for (int i = stopAt + 1; i < all.size(); i++) {
            if (all.get(i) instanceof StreamData d) {
                assertTrue(d.streamId() != id, "frame of the stopped stream after the stop response at " + i);
            }
        }
        assertEquals(1, fixture.agent.streamCount());
    }

    @Test
    void closedSessionFreesItsStreams() throws Exception {
        FakeSession s = fixture.connect();
        fixture.stream(s, "T_0", "read", 0);
        fixture.stream(s, "T_2", "read", 1);
        fixture.ok(s, new Call.SetupStream("T_0", "read", Map.of(), 5), Result.StreamHandle.class);
        assertEquals(3, fixture.agent.streamCount());
        s.close();
        assertEquals(0, fixture.agent.streamCount());
        FakeSession other = fixture.connect();
        assertTrue(fixture.ok(other, new Call.ListSensors(true), Result.Sensors.class).sensors().isEmpty(),
                "no sensor is streaming once the only client is gone");
    }

    @Test
    void slowClientGetsNoFramesUntilWritableWhileAnotherKeepsStreaming() throws Exception {
        int capacity = 5;
        int streams = 2;
        FakeSession slow = fixture.connect(capacity);
        FakeSession fast = fixture.connect();
        long slowId = fixture.stream(slow, "T_0", "read", 0);
        long slowPeriodic = fixture.stream(slow, "T_2", "read", 1);
        long fastId = fixture.stream(fast, "T_0", "read", 0);
        frames(fast, fastId, 2000);
        int slowCount = slow.sent(StreamData.class, d -> true).size();
        // Each stream checks writability before a frame, so the buffer can overshoot by one frame per stream.
        assertTrue(slowCount <= capacity + streams, "a client that does not read gets at most its buffer: "
                + slowCount);
        assertTrue(slow.sentWhileUnwritable() <= streams, "frames sent while unwritable: "
                + slow.sentWhileUnwritable());
        // Nothing more arrives while the client does not read.
        frames(fast, fastId, 4000);
        assertEquals(slowCount, slow.sent(StreamData.class, d -> true).size());

        slow.drain();
        List<StreamData> after = slow.await(StreamData.class, d -> true, slowCount + capacity, AgentFixture.WAIT_MS);
        assertTrue(slow.sentWhileUnwritable() <= 2 * streams);
        assertContiguous(after.stream().filter(d -> d.streamId() == slowId).toList());
        assertContiguous(after.stream().filter(d -> d.streamId() == slowPeriodic).toList());
    }

    @Test
    void manySessionsCanStreamTheSameSensor() throws Exception {
        FakeSession a = fixture.connect();
        FakeSession b = fixture.connect();
        long ida = fixture.stream(a, "T_0", "read", 1);
        long idb = fixture.stream(b, "T_0", "read", 0);
        assertContiguous(frames(a, ida, 10));
        assertContiguous(frames(b, idb, 100));
        fixture.ok(a, new Call.StopStream(ida), Result.StreamStopped.class);
        assertEquals(1, fixture.ok(a, new Call.ListSensors(true), Result.Sensors.class).sensors().size(),
                "still streaming to the other session");
    }

    @Test
    void streamsPerSessionAreBounded() throws Exception {
        assertEquals("this connection has 2 streams already; stop some before setting up another",
                refusalPastStreamsPerSession(2));
    }

    @Test
    void aSessionAtItsOneStreamIsToldTheBoundInTheSingular() throws Exception {
        assertEquals("this connection has 1 stream already; stop some before setting up another",
                refusalPastStreamsPerSession(1));
    }

    /** Sets up {@code bound} streams on an agent that allows that many a session; returns why one more is refused. */
    private String refusalPastStreamsPerSession(int bound) throws Exception {
        fixture.close();
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), b -> b.maxStreamsPerSession(bound));
        FakeSession s = fixture.connect();
        for (int i = 0; i < bound; i++) {
            fixture.ok(s, new Call.SetupStream("T_0", "read", Map.of(), 10), Result.StreamHandle.class);
        }
        return fixture.fails(s, new Call.SetupStream("T_0", "read", Map.of(), 10), ErrorCode.OVERLOADED).message();
    }
}
