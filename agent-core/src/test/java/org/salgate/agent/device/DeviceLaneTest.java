package org.salgate.agent.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.FakeDevice;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The bounds of a device's lane: how many requests wait, and how long each caller waits. */
@Timeout(30)
class DeviceLaneTest {

    private final FakeDevice device = new FakeDevice();
    private DeviceLane lane;

    @AfterEach
    void close() {
        if (lane != null) {
            lane.close();
        }
    }

    private DeviceLane start(long timeoutMs) throws InterruptedException {
        return start(new DeviceLane.Settings(timeoutMs, 1_000, 60_000));
    }

    private DeviceLane start(DeviceLane.Settings settings) throws InterruptedException {
        device.gate = new CountDownLatch(1); // the first connect waits: requests queue behind it
        lane = new DeviceLane("meter", "tcp:192.0.2.1:502", device, settings,
                new DeviceLane.Listener() {
                    @Override
                    public void disconnected(String why) {
                    }

                    @Override
                    public void reconnected() {
                    }
                });
        lane.start();
        assertTrue(device.atGate.await(10, TimeUnit.SECONDS));
        return lane;
    }

    @Test
    void requestsBeyondTheBoundAreRefusedAtOnceAndTheWaitingOnesAreReadInOneCall() throws Exception {
        start(20_000);
        List<CompletableFuture<Reading>> waiting = new ArrayList<>();
        for (int i = 0; i < DeviceLane.MAX_WAITING; i++) {
            device.registers.put("c" + i, Value.of((long) i));
            waiting.add(lane.read("meter.c" + i, ChannelConfig.read("c" + i, "", Map.of())));
        }
        assertEquals(DeviceLane.MAX_WAITING, lane.waiting());
        Reading refused = lane.read("meter.c0", ChannelConfig.read("c0", "", Map.of())).getNow(null);
        assertNotNull(refused, "a request beyond the bound waits");
        assertEquals(Reading.Status.ERROR, refused.status());
        assertTrue(refused.error().contains("64 requests waiting"), refused.error());

        device.gate.countDown();
        for (int i = 0; i < waiting.size(); i++) {
            Reading r = waiting.get(i).get(10, TimeUnit.SECONDS);
            assertEquals(Value.of((long) i), r.value(), "an unscaled whole number stays whole: " + r.error());
        }
        assertEquals(1, device.readCalls.size(), "the waiting reads are one call: " + device.readCalls);
        assertEquals(DeviceLane.MAX_WAITING, device.readCalls.get(0).size());
    }

    @Test
    void aCallerWaitsNoLongerThanTheTimeoutAndWhatItGaveUpIsNotSentToTheDevice() throws Exception {
        start(100);
        device.registers.put("v", Value.of(1L));
        long began = System.nanoTime();
        Reading late = lane.read("meter.v", ChannelConfig.read("v", "", Map.of())).get(10, TimeUnit.SECONDS);
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertEquals(Reading.Status.ERROR, late.status());
        assertTrue(late.error().contains("did not answer within 100 ms"), late.error());
        assertTrue(waitedMs >= 95 && waitedMs < 2_000, "waited " + waitedMs + " ms");

        device.gate.countDown();
        Reading now = lane.read("meter.v", ChannelConfig.read("v", "", Map.of())).get(10, TimeUnit.SECONDS);
        assertEquals(Reading.Status.OK, now.status(), now.error());
        assertEquals(List.of(List.of("v")), device.readCalls, "the read given up on was sent to the device");
    }

    /** A lane that is connected and idle, whose stream reads gather for {@code gatherMs}. */
    private void idleLane(long gatherMs) throws Exception {
        start(new DeviceLane.Settings(20_000, 1_000, 60_000, DeviceLane.MAX_WAITING, gatherMs, 0, 1));
        device.gate.countDown();
        device.registers.put("c0", Value.of(0L));
        assertEquals(Reading.Status.OK, lane.read("meter.c0", ChannelConfig.read("c0", "", Map.of()))
                .get(10, TimeUnit.SECONDS).status());
        device.readCalls.clear();
    }

    @Test
    void theReadsOfStreamsTickingTogetherAreOneCallWhenTheFirstFindsTheLaneIdle() throws Exception {
        idleLane(500);
        List<CompletableFuture<Reading>> ticks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            device.registers.put("c" + i, Value.of((long) i));
            ticks.add(lane.read("meter.c" + i, ChannelConfig.read("c" + i, "", Map.of()), true));
        }
        for (int i = 0; i < ticks.size(); i++) {
            assertEquals(Value.of((long) i), ticks.get(i).get(10, TimeUnit.SECONDS).value());
        }
        assertEquals(1, device.readCalls.size(), "the ticks' reads are one call: " + device.readCalls);
        assertEquals(10, device.readCalls.get(0).size());
    }

    @Test
    void aClientsReadDoesNotWaitForOtherReadsToGather() throws Exception {
        idleLane(10_000);
        device.registers.put("v", Value.of(7L));
        long began = System.nanoTime();
        Reading r = lane.read("meter.v", ChannelConfig.read("v", "", Map.of())).get(10, TimeUnit.SECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertEquals(Value.of(7L), r.value(), r.error());
        assertTrue(tookMs < 5_000, "a client's read waited " + tookMs + " ms, as long as a stream's gathering");
    }

    @Test
    void aGatheringTimeThatIsNotAWholeNumberOfMillisecondsIsRefusedByName() {
        ProtocolConfig p = new ProtocolConfig("meter", "modbus", "tcp:127.0.0.1:502",
                Map.of(DeviceLane.GATHER, "soon"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> DeviceLane.Settings.of(p));
        assertTrue(e.getMessage().contains("stream-gather-ms"), e.getMessage());
        assertEquals(0, DeviceLane.Settings.of(new ProtocolConfig("meter", "modbus", "tcp:127.0.0.1:502",
                Map.of(DeviceLane.GATHER, "0"))).gatherMs(), "0 turns gathering off");
    }

    /** Starts the lane on a device of channels c0..c7, and reads c0..c{n-1}, each arriving alone while the ones before are in flight. */
    private List<CompletableFuture<Reading>> readEachAlone(int n) throws InterruptedException {
        for (int i = 0; i < 8; i++) {
            device.registers.put("c" + i, Value.of((long) i));
        }
        start(new DeviceLane.Settings(20_000, 1_000, 60_000, DeviceLane.MAX_WAITING, 0, 0, 3));
        device.gate.countDown();
        List<CompletableFuture<Reading>> reads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            reads.add(lane.read("meter.c" + i, ChannelConfig.read("c" + i, "", Map.of())));
            Thread.sleep(10);
        }
        return reads;
    }

    @Test
    void aDeviceThatTakesConcurrentRequestsHasUpToTheBoundInFlightAndAWriteRunsAlone() throws Exception {
        device.concurrent = true;
        device.callMillis = 100;
        List<CompletableFuture<Reading>> reads = readEachAlone(6);
        CompletableFuture<Reading> write = lane.call("meter.c7", () -> {
            device.write(ChannelConfig.read("c7", "", Map.of()), Value.of(70L));
            return Reading.ok("meter.c7", 0, 0, Value.of(70L));
        });
        reads.add(lane.read("meter.c7", ChannelConfig.read("c7", "", Map.of())));
        for (CompletableFuture<Reading> read : reads) {
            Reading r = read.get(10, TimeUnit.SECONDS);
            assertEquals(Reading.Status.OK, r.status(), r.error());
        }
        assertEquals(Reading.Status.OK, write.get(10, TimeUnit.SECONDS).status());
        assertEquals(3, device.maxConcurrentCalls(), "three batches in flight at most: " + device.readCalls);
        assertFalse(device.writeOverlapped, "the write waited for the reads in flight");
        assertEquals(Value.of(70L), reads.get(6).get().value(), "the read after the write sees it");
    }

    @Test
    void aDeviceThatTakesOneRequestAtATimeNeverHasTwoInFlight() throws Exception {
        device.callMillis = 20;
        for (CompletableFuture<Reading> r : readEachAlone(6)) {
            assertEquals(Reading.Status.OK, r.get(10, TimeUnit.SECONDS).status());
        }
        assertEquals(1, device.maxConcurrentCalls());
    }
}
