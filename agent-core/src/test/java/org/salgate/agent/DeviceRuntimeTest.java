package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.session.Tokens;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.agent.testing.DevicePlugin;
import org.salgate.agent.testing.FakeDevice;
import org.salgate.agent.testing.FakeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.Value;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.StreamData;

/**
 * Device protocols end to end: their channels served as sensors, scaled, written by admins within
 * bounds, every request on the device's lane, deadlines, batched stream reads, and the device's
 * connection lost and found again.
 */
@Timeout(60)
class DeviceRuntimeTest {

    private static final String ENDPOINT = "tcp:127.0.0.1:5020";
    private static final ChannelConfig VOLTAGE = new ChannelConfig("voltage", "", "V", 0.1, 1,
            ChannelConfig.Access.READ, null, null, Map.of("address", "0"));
    private static final ChannelConfig SETPOINT = new ChannelConfig("setpoint", "", "Cel", 0.5, 0,
            ChannelConfig.Access.READ_WRITE, 5.0, 30.0, Map.of("address", "1"));
    private static final ChannelConfig LABEL = ChannelConfig.read("label", "", Map.of("address", "2"));

    private AgentFixture fixture;

    @BeforeEach
    void reset() {
        DevicePlugin.reset();
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
        DevicePlugin.reset();
    }

    private static ProtocolConfig device(String name, Map<String, String> parameters, ChannelConfig... channels) {
        return new ProtocolConfig(name, "device", ENDPOINT, parameters, List.of(), List.of(), List.of(channels));
    }

    private static ChannelConfig channel(String name) {
        return ChannelConfig.read(name, "", Map.of());
    }

    private void start(ProtocolConfig... protocols) throws Exception {
        fixture = AgentFixture.start(new PlatformConfig(List.of(protocols)),
                b -> b.deviceTargets(List.of("127.0.0.1:5020")));
    }

    private Reading read(FakeSession s, String sensor) throws InterruptedException {
        return fixture.execute(s, sensor, "read", Map.of());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AgentFixture.WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + AgentFixture.WAIT_MS + " ms for " + what);
            }
            Thread.sleep(5);
        }
    }

    private static boolean state(EventNotice n, String sensor) {
        return n.event().type() == Event.Type.SENSOR_STATE && n.event().subject().equals(sensor);
    }

    @Test
    void aPushedChannelServesItsLatestPushedValueScaledToReadsAndStreamsWithoutAskingTheDevice() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        ChannelConfig pushed = new ChannelConfig("level", "", "cm", 0.5, 0, ChannelConfig.Access.READ, null, null,
                Map.of("pushed", "true"));
        start(device("meter", Map.of(), pushed, VOLTAGE));
        FakeSession s = fixture.connect();
        await("the device to connect", () -> !meter.connectAttempts.isEmpty());

        Reading none = read(s, "meter.level");
        assertEquals(Reading.Status.UNAVAILABLE, none.status(), "no value has been pushed yet");
        assertTrue(none.error().contains("no value pushed yet"), none.error());

        meter.sink.push("level", new org.salgate.plugin.spi.ChannelValue(Value.of(84L), 1_000_000L, null));
        Reading level = read(s, "meter.level");
        assertEquals(Reading.Status.OK, level.status(), level.error());
        assertEquals(42.0, assertInstanceOf(Value.Num.class, level.value()).value(), 1e-9, "84 * 0.5");
        assertEquals("cm", level.unit());
        assertEquals(1_000_000L, level.deviceTimeMicros());

        long stream = fixture.stream(s, "meter.level", "read", 20);
        AgentFixture.frames(s, stream, 2);
        meter.sink.push("level", org.salgate.plugin.spi.ChannelValue.of(Value.of(100L)));
        s.await(StreamData.class, d -> d.streamId() == stream && d.reading().value().equals(Value.of(50.0)), 1,
                AgentFixture.WAIT_MS);
        assertTrue(meter.readCalls.stream().noneMatch(c -> c.contains("level")), "a pushed channel was read: "
                + meter.readCalls);

        IllegalArgumentException notPushed = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> meter.sink.push("voltage", org.salgate.plugin.spi.ChannelValue
                        .of(Value.of(1L))));
        assertTrue(notPushed.getMessage().contains("no pushed channel 'voltage'"), notPushed.getMessage());
    }

    @Test
    void channelsAreServedAsSensorsReadScaledOnceAndKeptInTheSavedConfiguration() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.registers.put("voltage", Value.of(2300L));
        meter.registers.put("label", Value.of("pump 7"));
        start(device("meter", Map.of(), VOLTAGE, SETPOINT, LABEL, channel("missing")));
        FakeSession s = fixture.connect();

        Reading voltage = read(s, "meter.voltage");
        assertEquals(Reading.Status.OK, voltage.status(), voltage.error());
        assertEquals(231.0, assertInstanceOf(Value.Num.class, voltage.value()).value(), 1e-9, "2300 * 0.1 + 1");
        assertEquals("V", voltage.unit(), "a channel's reading is in the channel's unit");
        assertEquals(0, voltage.deviceTimeMicros(), "the device stamped no time");
        assertEquals(Value.of("pump 7"), read(s, "meter.label").value(), "a value that is no number passes as it is");

        meter.registers.put("voltage", Value.of("n/a"));
        Reading text = read(s, "meter.voltage");
        assertEquals(Reading.Status.ERROR, text.status());
        assertTrue(text.error().contains("not a number"), text.error());
        Reading failed = read(s, "meter.missing");
        assertEquals(Reading.Status.ERROR, failed.status());
        assertTrue(failed.error().contains("illegal data address"), failed.error());
        meter.registers.put("voltage", Value.absent());
        assertEquals(Reading.Status.UNAVAILABLE, read(s, "meter.voltage").status());

        String sensorMl = fixture.ok(s, new Call.DescribeSensor("meter.voltage"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("code=\"V\""), sensorMl);
        String readOnly = fixture.ok(s, new Call.ListCommands("meter.voltage"), Result.Document.class).xml();
        assertTrue(readOnly.contains("\"read\"") && !readOnly.contains("\"write\""), readOnly);
        String writable = fixture.ok(s, new Call.ListCommands("meter.setpoint"), Result.Document.class).xml();
        assertTrue(writable.contains("\"write\""), writable);

        String saved = fixture.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
        ProtocolConfig again = Pcml.read(saved).protocols().get(0);
        assertEquals(List.of(VOLTAGE, SETPOINT, LABEL, channel("missing")), again.channels());
        assertTrue(again.addedSensors().isEmpty() && again.removedSensors().isEmpty(), saved);
    }

    @Test
    void aValueTheDeviceStampedKeepsTheDevicesTimeBesideTheAgentsOneInAReadAndAStream() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.registers.put("voltage", Value.of(2300L));
        long stamped = 1_600_000_000_000_000L;
        meter.stamps.put("voltage", stamped);
        start(device("meter", Map.of(), VOLTAGE));
        FakeSession s = fixture.connect();
        long before = System.currentTimeMillis() * 1000;
        Reading r = read(s, "meter.voltage");
        assertEquals(stamped, r.deviceTimeMicros());
        assertTrue(r.timestampMicros() >= before - 1000, "the timestamp is the agent's time of the read, not the device's");
        assertEquals("V", r.unit());
        long id = fixture.stream(s, "meter.voltage", "read", 5);
        for (StreamData frame : AgentFixture.frames(s, id, 2)) {
            assertEquals(stamped, frame.reading().deviceTimeMicros());
            assertEquals("V", frame.reading().unit());
        }
    }

    @Test
    void writesAreBoundedByTheChannelInvertedToRawAndForAdminsOnly() throws Exception {
        String admin = "admin-token-0123456789";
        String reader = "reader-token-0123456789";
        FakeDevice meter = DevicePlugin.device("meter");
        fixture = AgentFixture.start(new PlatformConfig(List.of(device("meter", Map.of(), SETPOINT))),
                b -> b.deviceTargets(List.of("127.0.0.1:5020"))
                        .tokens(Tokens.parse(List.of(admin + " admin", reader + " reader"), "test")));
        FakeSession asAdmin = connect(admin);
        FakeSession asReader = connect(reader);

        Result.Failure high = fixture.fails(asAdmin, new Call.Execute("meter.setpoint", "write", Map.of("value", "40")),
                ErrorCode.INVALID_ARGUMENT);
        assertTrue(high.message().contains("from 5 to 30"), high.message());
        assertTrue(meter.writes.isEmpty(), "a refused write never reaches the device");

        Reading written = fixture.execute(asAdmin, "meter.setpoint", "write", Map.of("value", "20"));
        assertEquals(Reading.Status.OK, written.status(), written.error());
        assertEquals(List.of("setpoint=" + Value.of(40.0)), meter.writes, "20 Cel at scale 0.5 is raw 40");

        Result.Failure denied = fixture.fails(asReader, new Call.Execute("meter.setpoint", "write",
                Map.of("value", "10")), ErrorCode.PERMISSION_DENIED);
        assertTrue(denied.message().contains("admin"), denied.message());
        assertEquals(1, meter.writes.size());
        assertEquals(20.0, assertInstanceOf(Value.Num.class, read(asReader, "meter.setpoint").value()).value(), 1e-9,
                "a reader still reads it");
    }

    private FakeSession connect(String token) throws InterruptedException {
        FakeSession s = fixture.transport.server().open(Integer.MAX_VALUE);
        fixture.transport.server().handler().messageReceived(s,
                new Hello(Hello.PROTOCOL_VERSION, "protobuf", "test-client", token));
        HelloReply reply = s.await(HelloReply.class, r -> true, 1, AgentFixture.WAIT_MS).get(0);
        assertTrue(reply.accepted(), reply.error());
        return s;
    }

    @Test
    void theLaneNeverRunsTwoRequestsToADeviceAtOnce() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.callMillis = 3;
        meter.registers.put("voltage", Value.of(1L));
        meter.registers.put("setpoint", Value.of(20L));
        start(device("meter", Map.of(), VOLTAGE, SETPOINT));
        List<FakeSession> sessions = new ArrayList<>();
        List<long[]> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            FakeSession s = fixture.connect();
            sessions.add(s);
            long[] ids = new long[10];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = j % 5 == 4
                        ? fixture.send(s, new Call.Execute("meter.setpoint", "write", Map.of("value", "12")))
                        : fixture.send(s, new Call.Execute(j % 2 == 0 ? "meter.voltage" : "meter.setpoint", "read",
                                Map.of()));
            }
            sent.add(ids);
        }
        fixture.stream(sessions.get(0), "meter.voltage", "read", 2);
        for (int i = 0; i < sessions.size(); i++) {
            for (long id : sent.get(i)) {
                Reading r = assertInstanceOf(Result.ReadingResult.class, fixture.response(sessions.get(i), id)).reading();
                assertEquals(Reading.Status.OK, r.status(), r.error());
            }
        }
        assertEquals(8, meter.writes.size());
        assertEquals(1, meter.maxConcurrentCalls(), "two requests ran on the device at once");
    }

    @Test
    void aBlackholedDeviceTimesOutItsCallersWithoutDelayingAnotherProtocolsStream() throws Exception {
        FakeDevice dead = DevicePlugin.device("dead");
        dead.blackhole = true;
        fixture = AgentFixture.start(new PlatformConfig(List.of(device("dead", Map.of("request-timeout-ms", "2000"),
                channel("a"), channel("b"), channel("c"), channel("d")),
                new ProtocolConfig("test", "test", "virtual", Map.of("sensors", "1")))),
                b -> b.deviceTargets(List.of("127.0.0.1:5020")).workerThreads(2));
        FakeSession deadStreams = fixture.connect();
        for (String c : List.of("a", "b")) {
            fixture.stream(deadStreams, "dead." + c, "read", 5);
        }
        for (String c : List.of("c", "d")) {
            sharedStream(deadStreams, "dead." + c, 5);
        }
        FakeSession callers = fixture.connect();
        long began = System.nanoTime();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(fixture.send(callers, new Call.Execute("dead.a", "read", Map.of())));
        }
        FakeSession other = fixture.connect();
        long stream = fixture.stream(other, "T_0", "read", 20);
        long asked = System.nanoTime();
        assertEquals(Reading.Status.OK, read(other, "T_0").status());
        long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
        assertTrue(answeredMs < 1_000, "a read of another protocol waited " + answeredMs + " ms behind the dead device's");

        for (long id : ids) {
            Reading r = assertInstanceOf(Result.ReadingResult.class, fixture.response(callers, id)).reading();
            assertEquals(Reading.Status.ERROR, r.status());
            assertTrue(r.error().contains("did not answer within 2000 ms"), r.error());
        }
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertTrue(waited < 6_000, "callers waited " + waited + " ms for a 2000 ms deadline");

        List<StreamData> frames = AgentFixture.frames(other, stream, 40);
        long worstGapMs = 0;
        for (int i = 1; i < frames.size(); i++) {
            worstGapMs = Math.max(worstGapMs, (frames.get(i).reading().timestampMicros()
                    - frames.get(i - 1).reading().timestampMicros()) / 1000);
        }
        assertTrue(worstGapMs < 1_000, "the other protocol's 20 ms stream had a gap of " + worstGapMs + " ms");
        deadStreams.await(StreamData.class, d -> d.reading().error().contains("did not answer"), 1,
                AgentFixture.WAIT_MS);
    }

    @Test
    void aLostDeviceIsReportedDisconnectedFailsFastReconnectsWithBackoffAndComesBack() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.reachable = false;
        meter.registers.put("voltage", Value.of(10L));
        fixture = AgentFixture.start(new PlatformConfig(List.of()), b -> b.deviceTargets(List.of("127.0.0.1:5020")));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        fixture.ok(s, new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(device("meter",
                Map.of("reconnect-min-ms", "100", "reconnect-max-ms", "400"), VOLTAGE))))), Result.Protocols.class);

        EventNotice gone = s.await(EventNotice.class, n -> state(n, "meter.voltage"), 1, AgentFixture.WAIT_MS).get(0);
        assertEquals(SensorState.DISCONNECTED, gone.event().state());
        assertTrue(gone.event().detail().contains("connection refused"), gone.event().detail());
        long began = System.nanoTime();
        Reading fast = read(s, "meter.voltage");
        assertTrue(System.nanoTime() - began < TimeUnit.MILLISECONDS.toNanos(1_000), "a read waited for the device");
        assertEquals(Reading.Status.DISCONNECTED, fast.status());
        assertTrue(fast.error().contains("is disconnected: connection refused; next attempt in"), fast.error());
        assertTrue(meter.readCalls.isEmpty(), "a disconnected device is not asked");

        await("5 connect attempts", () -> meter.connectAttempts.size() >= 5);
        List<Long> at = meter.connectAttempts;
        long[] floorMs = {100, 200, 400, 400}; // capped at 400: uncapped, the last would be 800
        for (int i = 0; i < floorMs.length; i++) {
            long gapMs = TimeUnit.NANOSECONDS.toMillis(at.get(i + 1) - at.get(i));
            assertTrue(gapMs >= floorMs[i] - 5, "attempt " + (i + 1) + " came " + gapMs + " ms after the one before");
            assertTrue(gapMs < floorMs[i] + 300, "attempt " + (i + 1) + " came " + gapMs + " ms after the one before,"
                    + " beyond the capped backoff");
        }

        meter.reachable = true;
        List<EventNotice> back = s.await(EventNotice.class, n -> state(n, "meter.voltage"), 2, AgentFixture.WAIT_MS);
        assertEquals(SensorState.IDLE, back.get(1).event().state());
        assertTrue(back.get(1).event().detail().contains("connected again"), back.get(1).event().detail());
        assertEquals(Reading.Status.OK, read(s, "meter.voltage").status());

        int disconnects = meter.disconnects.get();
        meter.droppedReads.set(1);
        Reading dropped = read(s, "meter.voltage");
        assertEquals(Reading.Status.DISCONNECTED, dropped.status());
        assertTrue(dropped.error().contains("is disconnected: connection reset by peer"), dropped.error());
        assertTrue(meter.disconnects.get() > disconnects, "the protocol is disconnected before reconnecting");
        List<EventNotice> again = s.await(EventNotice.class, n -> state(n, "meter.voltage"), 4, AgentFixture.WAIT_MS);
        assertEquals(SensorState.DISCONNECTED, again.get(2).event().state());
        assertEquals(SensorState.IDLE, again.get(3).event().state());
        assertEquals(Reading.Status.OK, read(s, "meter.voltage").status());
    }

    @Test
    void threeStreamsOfADeviceDueTogetherShareOneBatchedRead() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.gate = new CountDownLatch(1); // the first connect waits: every read queues behind it
        for (String c : List.of("a", "b", "c")) {
            meter.registers.put(c, Value.of(1L));
        }
        start(device("meter", Map.of("request-timeout-ms", "20000"), channel("a"), channel("b"), channel("c")));
        assertTrue(meter.atGate.await(AgentFixture.WAIT_MS, TimeUnit.MILLISECONDS));
        FakeSession s = fixture.connect();
        List<Long> streams = new ArrayList<>();
        for (String c : List.of("a", "b", "c")) {
            streams.add(fixture.stream(s, "meter." + c, "read", 10));
        }
        // Each stream skips its ticks while its first read waits: once they have skipped a few, all three wait.
        await("the streams' reads to wait", () -> fixture.agent.streamTotals().skipped() >= 9);
        meter.gate.countDown();
        for (long id : streams) {
            AgentFixture.frames(s, id, 3);
        }
        Set<String> first = new HashSet<>(meter.readCalls.get(0));
        assertEquals(Set.of("a", "b", "c"), first, "the first read call was " + meter.readCalls.get(0));
        assertEquals(3, meter.readCalls.get(0).size());
    }

    private long sharedStream(FakeSession s, String sensor, long intervalMs) throws InterruptedException {
        long id = fixture.ok(s, new Call.SetupStream(sensor, "read", Map.of(), intervalMs, SlowConsumerPolicy.BLOCK,
                true), Result.StreamHandle.class).streamId();
        fixture.ok(s, new Call.StartStream(id), Result.Ack.class);
        return id;
    }

    @Test
    void aSharedStreamOfAChannelGivesEverySubscriberTheScaledReadings() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.registers.put("voltage", Value.of(90L));
        start(device("meter", Map.of(), VOLTAGE));
        FakeSession one = fixture.connect();
        FakeSession two = fixture.connect();
        long id = sharedStream(one, "meter.voltage", 5);
        assertEquals(id, sharedStream(two, "meter.voltage", 5));
        for (FakeSession s : List.of(one, two)) {
            List<StreamData> frames = AgentFixture.frames(s, id, 5);
            for (StreamData f : frames) {
                assertEquals(10.0, assertInstanceOf(Value.Num.class, f.reading().value()).value(), 1e-9);
            }
        }
    }

    @Test
    void aPollThatThrowsNeverStopsTheStream() throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        meter.registers.put("voltage", Value.of(5L));
        meter.failingReads.set(2);
        meter.assertingReads.set(1);
        start(device("meter", Map.of(), VOLTAGE));
        FakeSession s = fixture.connect();
        long id = fixture.stream(s, "meter.voltage", "read", 5);
        List<StreamData> frames = AgentFixture.frames(s, id, 6);
        AgentFixture.assertContiguous(frames);
        for (int i = 0; i < 3; i++) {
            assertEquals(Reading.Status.ERROR, frames.get(i).reading().status(), "frame " + i);
        }
        assertTrue(frames.get(0).reading().error().contains("garbage"), frames.get(0).reading().error());
        assertTrue(frames.get(2).reading().error().contains("assertion"), frames.get(2).reading().error());
        for (int i = 3; i < frames.size(); i++) {
            assertEquals(Reading.Status.OK, frames.get(i).reading().status(), "frame " + i);
        }
    }

    @Test
    void removingADeviceProtocolStopsItsLaneThenDisconnectsAndClosesIt() throws Exception {
        FakeDevice dead = DevicePlugin.device("dead");
        dead.blackhole = true;
        start(device("dead", Map.of(), channel("a")));
        FakeSession s = fixture.connect();
        long pending = fixture.send(s, new Call.Execute("dead.a", "read", Map.of()));
        await("the read to reach the device", () -> !dead.readCalls.isEmpty());
        fixture.ok(s, new Call.RemoveProtocol("dead"), Result.Ack.class);
        assertTrue(dead.closed());
        assertTrue(dead.disconnects.get() >= 1);
        Reading r = assertInstanceOf(Result.ReadingResult.class, fixture.response(s, pending)).reading();
        assertEquals(Reading.Status.ERROR, r.status());
        await("the lane's thread to end", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("device-dead")));
    }

    @Test
    void aDeviceTheOperatorDidNotAllowIsRefusedBeforeItIsOpened() throws Exception {
        fixture = AgentFixture.start(new PlatformConfig(List.of()));
        FakeSession s = fixture.connect();
        Result.Failure refused = fixture.fails(s, new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(
                device("meter", Map.of(), VOLTAGE))))), ErrorCode.INVALID_ARGUMENT);
        assertTrue(refused.message().contains("--device-allow"), refused.message());
        assertTrue(DevicePlugin.device("meter").connectAttempts.isEmpty());
        assertFalse(fixture.agent.sensors().stream().anyMatch(i -> i.id().startsWith("meter.")));
    }

    @Test
    void channelsTheDeviceListsAreServedAsSensorsGoDisconnectedWhenNoLongerListedAndAreNotSaved()
            throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        ChannelConfig probe = new ChannelConfig("probe-28A1", "a listed probe", "Cel", 0.1, 0,
                ChannelConfig.Access.READ, null, null, Map.of("address", "9"));
        ChannelConfig shadow = ChannelConfig.read("voltage", "the device's own idea of a configured channel",
                Map.of("address", "99"));
        meter.listed = List.of(probe, shadow);
        meter.registers.put("probe-28A1", Value.of(215L));
        meter.registers.put("voltage", Value.of(2300L));
        fixture = AgentFixture.start(new PlatformConfig(List.of()), b -> b.deviceTargets(List.of("127.0.0.1:5020")));
        FakeSession s = fixture.connect();
        fixture.ok(s, new Call.SubscribeEvents(), Result.Ack.class);
        fixture.ok(s, new Call.AddProtocol(Pcml.write(new PlatformConfig(List.of(device("meter",
                Map.of("discover-interval-ms", "50"), VOLTAGE))))), Result.Protocols.class);

        EventNotice added = s.await(EventNotice.class, n -> n.event().type() == Event.Type.SENSOR_ADDED
                && n.event().subject().equals("meter.probe-28A1"), 1, AgentFixture.WAIT_MS).get(0);
        assertTrue(added.event().detail().contains("discovered"), added.event().detail());
        Reading r = read(s, "meter.probe-28A1");
        assertEquals(Reading.Status.OK, r.status(), r.error());
        assertEquals(21.5, assertInstanceOf(Value.Num.class, r.value()).value(), 1e-9, "215 * 0.1");
        assertEquals("Cel", r.unit());
        String sensorMl = fixture.ok(s, new Call.DescribeSensor("meter.probe-28A1"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("a listed probe") && sensorMl.contains("code=\"Cel\""), sensorMl);
        assertEquals(230.0 + 1, assertInstanceOf(Value.Num.class, read(s, "meter.voltage").value()).value(), 1e-9,
                "the configured channel wins over the one the device lists under its name");
        await("discoveries at the interval", () -> meter.discoveries.get() >= 3);

        meter.listed = List.of(shadow);
        EventNotice gone = s.await(EventNotice.class, n -> state(n, "meter.probe-28A1"), 1, AgentFixture.WAIT_MS)
                .get(0);
        assertEquals(SensorState.DISCONNECTED, gone.event().state());
        assertTrue(gone.event().detail().contains("no longer found"), gone.event().detail());
        int readsBefore = meter.readCalls.size();
        Reading missing = read(s, "meter.probe-28A1");
        assertEquals(Reading.Status.DISCONNECTED, missing.status());
        assertTrue(missing.error().contains("was not found on its device"), missing.error());
        assertEquals(readsBefore, meter.readCalls.size(), "a channel no longer listed is not asked for");
        assertEquals(Reading.Status.OK, read(s, "meter.voltage").status(), "the device's other sensors go on");

        meter.failingDiscoveries.set(2);
        int asked = meter.discoveries.get();
        await("two failed discoveries and one more", () -> meter.discoveries.get() >= asked + 3);
        assertEquals(Reading.Status.OK, read(s, "meter.voltage").status(), "a failed discovery stops nothing");
        meter.listed = List.of(probe);
        EventNotice back = s.await(EventNotice.class, n -> state(n, "meter.probe-28A1"), 2, AgentFixture.WAIT_MS)
                .get(1);
        assertEquals(SensorState.IDLE, back.event().state());
        assertTrue(back.event().detail().contains("found on its device again"), back.event().detail());
        assertEquals(Reading.Status.OK, read(s, "meter.probe-28A1").status());

        String saved = fixture.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
        ProtocolConfig again = Pcml.read(saved).protocols().get(0);
        assertEquals(List.of(VOLTAGE), again.channels());
        assertTrue(again.addedSensors().isEmpty() && again.removedSensors().isEmpty(),
                "a discovered sensor is found again at the next start, not saved: " + saved);

        fixture.ok(s, new Call.RemoveProtocol("meter"), Result.Ack.class);
        assertFalse(fixture.agent.sensors().stream().anyMatch(i -> i.id().startsWith("meter.")),
                "no discovered sensor outlives its protocol");
    }

    @Test
    void aConfiguredChannelWithoutAUnitTakesTheOneItsDeviceListsAndAListedPushedChannelKeepsItsFirstValue()
            throws Exception {
        FakeDevice meter = DevicePlugin.device("meter");
        ChannelConfig flow = ChannelConfig.read("flow", "", Map.of("address", "3"));
        ChannelConfig level = new ChannelConfig("level", "", "cm", 1, 0, ChannelConfig.Access.READ, null, null,
                Map.of("pushed", "true"));
        meter.listed = List.of(new ChannelConfig("flow", "", "m3/h", 1, 0, ChannelConfig.Access.READ, null, null,
                Map.of("address", "3")), level);
        meter.registers.put("flow", Value.of(12L));
        meter.pushedWhileListing.put("level", Value.of(42L));
        start(device("meter", Map.of(), flow));
        FakeSession s = fixture.connect();
        await("the listed channel", () -> fixture.agent.sensors().stream().anyMatch(i -> i.id().equals("meter.level")));

        Reading r = read(s, "meter.flow");
        assertEquals(Reading.Status.OK, r.status(), r.error());
        assertEquals("m3/h", r.unit(), "the unit the device gave a configured channel without one");
        String sensorMl = fixture.ok(s, new Call.DescribeSensor("meter.flow"), Result.Document.class).xml();
        assertTrue(sensorMl.contains("code=\"m3/h\""), sensorMl);
        String saved = fixture.ok(s, new Call.GetPlatformConfig(), Result.Document.class).xml();
        ProtocolConfig again = Pcml.read(saved).protocols().get(0);
        assertEquals(List.of(flow), again.channels(), "the saved configuration is the operator's, unit-less");
        assertTrue(again.addedSensors().isEmpty() && again.removedSensors().isEmpty(), saved);

        Reading pushed = read(s, "meter.level");
        assertEquals(Reading.Status.OK, pushed.status(), "the value pushed while the channel was being listed: "
                + pushed.error());
        assertEquals(Value.of(42L), pushed.value());
        assertEquals("cm", pushed.unit());
    }
}
