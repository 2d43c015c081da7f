package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.testing.FakeSession;
import org.salgate.agent.testing.TestPlugin;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.wire.StreamEnded;

@Timeout(30)
class EventsTest {

    private AgentFixture fixture;

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static boolean is(EventNotice n, Event.Type type, String subject) {
        return n.event().type() == type && n.event().subject().equals(subject);
    }

    @Test
    void subscribersGetSensorStateEventsAndUnsubscribedSessionsDoNot() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(2, Map.of()));
        FakeSession listener = fixture.connect();
        FakeSession bystander = fixture.connect();
        FakeSession streamer = fixture.connect();
        fixture.ok(listener, new Call.SubscribeEvents(), Result.Ack.class);

        long id = fixture.stream(streamer, "T_0", "read", 5);
        EventNotice streaming = listener.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_STATE, "T_0"), 1,
                AgentFixture.WAIT_MS).get(0);
        assertEquals(SensorState.STREAMING, streaming.event().state());
        fixture.ok(streamer, new Call.StopStream(id), Result.StreamStopped.class);
        List<EventNotice> states = listener.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_STATE, "T_0"), 2,
                AgentFixture.WAIT_MS);
        assertEquals(SensorState.IDLE, states.get(1).event().state());
        assertTrue(bystander.sent(EventNotice.class, n -> true).isEmpty());

        fixture.ok(listener, new Call.UnsubscribeEvents(), Result.Ack.class);
        fixture.stream(streamer, "T_1", "read", 5);
        fixture.ok(streamer, new Call.ListSensors(true), Result.Sensors.class);
        assertTrue(listener.sent(EventNotice.class, n -> n.event().subject().equals("T_1")).isEmpty());
    }

    @Test
    void removingAProtocolRemovesItsSensorsEndsTheirStreamsAndTellsSubscribers() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(2, Map.of()));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        long id = fixture.stream(s, "T_1", "read", 1);
        fixture.ok(s, new Call.RemoveProtocol("test"), Result.Ack.class);
        s.await(StreamEnded.class, e -> e.streamId() == id, 1, AgentFixture.WAIT_MS);
        s.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_REMOVED, "T_0"), 1, AgentFixture.WAIT_MS);
        s.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_REMOVED, "T_1"), 1, AgentFixture.WAIT_MS);
        s.await(EventNotice.class, n -> is(n, Event.Type.PROTOCOL_REMOVED, "test"), 1, AgentFixture.WAIT_MS);
        assertTrue(fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors().isEmpty());
        assertTrue(fixture.ok(s, new Call.ListProtocols(), Result.Protocols.class).protocols().isEmpty());
        assertEquals(0, fixture.agent.streamCount());
    }

    @Test
    void sensorFailingManyReadsInARowIsReportedDisabledAndKeepsStreamingErrors() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(2, Map.of("throwing", "T_1")));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        long id = fixture.stream(s, "T_1", "read", 0);
        EventNotice disabled = s.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_STATE, "T_1")
                && n.event().state() == SensorState.DISABLED, 1, AgentFixture.WAIT_MS).get(0);
        assertTrue(disabled.event().detail().contains("consecutive"), disabled.event().detail());
        List<org.salgate.model.SensorInfo> sensors = fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class)
                .sensors();
        assertEquals(SensorState.DISABLED, sensors.get(1).state());
        int before = s.sent(org.salgate.wire.StreamData.class, d -> d.streamId() == id).size();
        AgentFixture.frames(s, id, before + 50);
        assertEquals(SensorState.IDLE, sensors.get(0).state());
    }

    @Test
    void unpluggedSensorIsReportedDisconnectedAtOnceAndConnectedAgainOnItsFirstGoodRead() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(2, Map.of()));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        TestPlugin.UNPLUGGED.add("T_1");
        try {
            Reading failed = fixture.ok(s, new Call.Execute("T_1", "read", Map.of()), Result.ReadingResult.class)
                    .reading();
            assertEquals(Reading.Status.DISCONNECTED, failed.status());
            assertTrue(failed.error().contains("disconnected") && failed.error().contains("unplugged"),
                    failed.error());
            EventNotice gone = s.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_STATE, "T_1"), 1,
                    AgentFixture.WAIT_MS).get(0);
            assertEquals(SensorState.DISCONNECTED, gone.event().state());
            assertTrue(gone.event().detail().contains("unplugged"), gone.event().detail());
            List<SensorInfo> sensors = fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors();
            assertEquals(SensorState.IDLE, sensors.get(0).state());
            assertEquals(SensorState.DISCONNECTED, sensors.get(1).state());
        } finally {
            TestPlugin.UNPLUGGED.remove("T_1");
        }
        Reading back = fixture.ok(s, new Call.Execute("T_1", "read", Map.of()), Result.ReadingResult.class).reading();
        assertEquals(Reading.Status.OK, back.status());
        List<EventNotice> states = s.await(EventNotice.class, n -> is(n, Event.Type.SENSOR_STATE, "T_1"), 2,
                AgentFixture.WAIT_MS);
        assertEquals(SensorState.IDLE, states.get(1).event().state());
        assertEquals(SensorState.IDLE,
                fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors().get(1).state());
    }

    @Test
    void disconnectedReadsDoNotDisableASensor() throws Exception {
        fixture = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()));
        FakeSession s = fixture.connect();
        TestPlugin.UNPLUGGED.add("T_0");
        try {
            long id = fixture.stream(s, "T_0", "read", 0);
            AgentFixture.frames(s, id, SensorManager.DISABLE_AFTER_FAILURES * 2);
            assertEquals(SensorState.DISCONNECTED,
                    fixture.ok(s, new Call.ListSensors(false), Result.Sensors.class).sensors().get(0).state());
        } finally {
            TestPlugin.UNPLUGGED.remove("T_0");
        }
    }
}
