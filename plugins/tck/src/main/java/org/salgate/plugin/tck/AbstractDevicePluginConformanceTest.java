package org.salgate.plugin.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.wire.StreamData;

/**
 * The conformance suite of a plugin whose protocols talk to devices (an endpoint with a target,
 * such as {@code tcp:HOST:PORT}): everything {@link AbstractPluginConformanceTest} checks, and a
 * device that vanishes and returns, and one that never answers. A plugin's test says how to stop
 * and start the device of {@link #protocol()} and gives a protocol whose device never answers.
 */
public abstract class AbstractDevicePluginConformanceTest extends AbstractPluginConformanceTest {

    /**
     * The request timeout the suite gives a protocol whose device never answers: a neighbour held
     * behind that device would stall at least this long.
     */
    protected static final long REQUEST_TIMEOUT_MS = 2_000;
    /** The interval of the neighbour's stream that must keep its rate. */
    protected static final long NEIGHBOUR_INTERVAL_MS = 20;
    /**
     * The longest gap the neighbour's stream may show meanwhile: half the request timeout, well
     * short of a stall behind the silent device, and room for the pauses of a loaded machine (a
     * build host with a load of ten per core shows gaps of 500 ms).
     */
    protected static final long NEIGHBOUR_WORST_GAP_MS = REQUEST_TIMEOUT_MS / 2;
    /** How long a read of a disconnected device may take: it must not wait for the device. */
    protected static final long FAST_FAILURE_MS = 1_000;

    /** Makes the device of {@link #protocol()} vanish: it stops listening and drops its connections. */
    protected abstract void stopDevice() throws Exception;

    /** Brings the device of {@link #protocol()} back, at the same address, with the same values. */
    protected abstract void startDevice() throws Exception;

    /**
     * A protocol of the plugin, with a name of its own, whose device accepts connections and never
     * answers; the plugin's own timeout, if any, longer than {@link #REQUEST_TIMEOUT_MS}, so that
     * the agent's is what ends the reads.
     */
    protected abstract ProtocolConfig unansweringDevice() throws Exception;

    /**
     * The status of a read of {@link #unansweringDevice()}'s sensors: {@code ERROR} by default, the
     * request timing out. A plugin whose device speaks by itself (a serial line instrument) answers
     * from what the device pushed without asking it, and says {@code UNAVAILABLE} for a device silent
     * since its port opened.
     */
    protected Reading.Status unansweredReadStatus() {
        return Reading.Status.ERROR;
    }

    /** The protocol under test, reconnecting every 50 to 200 ms once its device is lost. */
    private ProtocolConfig reconnectingQuickly() {
        return withParameters(protocol(), Map.of("reconnect-min-ms", "50", "reconnect-max-ms", "200"));
    }

    private static boolean stateOf(Event e, String sensor, SensorState state) {
        return e.type() == Event.Type.SENSOR_STATE && e.subject().equals(sensor) && e.state() == state;
    }

    @Test
    void aDeviceThatVanishesTurnsItsSensorsDisconnectedWithEventsFailsReadsFastAndServesAgainOnceBack()
            throws Exception {
        KitAgent agent = startObserved(reconnectingQuickly(), neighbour());
        KitSession s = agent.session();
        s.ok(new Call.SubscribeEvents(), Result.Ack.class);
        readsEverySensor(agent, s);
        List<String> sensors = sensorsOf(agent, protocol().name());
        String first = sensors.get(0);

        stopDevice();
        // The device's loss shows at the next request: read until the protocol says it is lost.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KitSession.WAIT_MS);
        while (s.eventsSoFar(e -> stateOf(e, first, SensorState.DISCONNECTED)).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the agent never reported " + first + " disconnected");
            s.read(first, readCommand(first), Map.of());
            Thread.sleep(20);
        }
        for (String id : sensors) {
            Event gone = s.events(e -> stateOf(e, id, SensorState.DISCONNECTED), 1, id + " disconnected").get(0);
            assertFalse(gone.detail().isBlank(), "the event of " + id + " does not say why");
        }
        assertTrue(agent.agent().sensors().stream().filter(i -> sensors.contains(i.id()))
                .allMatch(i -> i.state() == SensorState.DISCONNECTED), "the sensor list: " + agent.agent().sensors());

        ProtocolCalls calls = calls(protocol().name());
        for (String id : sensors) {
            int asked = readsOf(calls);
            long began = System.nanoTime();
            Reading fast = s.read(id, readCommand(id), Map.of());
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertEquals(Reading.Status.DISCONNECTED, fast.status(), id + " read without its device");
            assertTrue(fast.error().contains("disconnected"), fast.error());
            assertTrue(tookMs < FAST_FAILURE_MS, "a read of a disconnected device took " + tookMs + " ms");
            assertEquals(asked, readsOf(calls), "a disconnected device was asked: " + calls.calls());
        }
        neighbourServes(s);

        startDevice();
        for (String id : sensors) {
            Event back = s.events(e -> stateOf(e, id, SensorState.IDLE), 1, id + " connected again").get(0);
            assertFalse(back.detail().isBlank(), "the event of " + id + " does not say why");
        }
        readsEverySensor(agent, s);
    }

    private static int readsOf(ProtocolCalls calls) {
        return (int) calls.calls().stream().filter(c -> !c.equals("connect")).count();
    }

    @Test
    void aDeviceThatNeverAnswersFailsTheReadWithinTheRequestTimeoutWhileAnotherProtocolsStreamKeepsItsRate()
            throws Exception {
        ProtocolConfig silent = withParameters(unansweringDevice(),
                Map.of("request-timeout-ms", Long.toString(REQUEST_TIMEOUT_MS)));
        KitAgent agent = start(silent, neighbour());
        KitSession s = agent.session();
        List<String> sensors = sensorsOf(agent, silent.name());
        assertFalse(sensors.isEmpty(), "protocol " + silent.name() + " serves no sensor");
        KitSession other = agent.session();
        long neighbourStream = other.stream(NEIGHBOUR_SENSOR, "read", NEIGHBOUR_INTERVAL_MS);

        long began = System.nanoTime();
        List<CompletableFuture<Result>> reads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = sensors.get(i % sensors.size());
            reads.add(s.send(new Call.Execute(id, readCommand(id), Map.of())));
        }
        long asked = System.nanoTime();
        neighbourServes(other);
        long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
        assertTrue(answeredMs < NEIGHBOUR_WORST_GAP_MS, "a read of the neighbour waited " + answeredMs
                + " ms behind the silent device's");
        for (CompletableFuture<Result> read : reads) {
            Result r = read.get(KitSession.WAIT_MS, TimeUnit.MILLISECONDS);
            Reading reading = ((Result.ReadingResult) r).reading();
            assertEquals(unansweredReadStatus(), reading.status(), "a device that never answers gave " + reading);
            assertFalse(reading.error().isBlank(), "the failed read does not say why");
        }
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertTrue(waitedMs < REQUEST_TIMEOUT_MS + 2_000, "three reads sent at once with a " + REQUEST_TIMEOUT_MS
                + " ms request timeout took " + waitedMs + " ms");

        int meanwhile = (int) (waitedMs / NEIGHBOUR_INTERVAL_MS);
        List<StreamData> frames = other.frames(neighbourStream, Math.max(meanwhile, 20));
        long worstGapMs = 0;
        Set<Reading.Status> statuses = new HashSet<>();
        for (int i = 1; i < frames.size(); i++) {
            worstGapMs = Math.max(worstGapMs, (frames.get(i).reading().timestampMicros()
                    - frames.get(i - 1).reading().timestampMicros()) / 1000);
            statuses.add(frames.get(i).reading().status());
        }
        assertEquals(Set.of(Reading.Status.OK), statuses, "the neighbour's readings");
        assertTrue(worstGapMs < NEIGHBOUR_WORST_GAP_MS, "the neighbour's " + NEIGHBOUR_INTERVAL_MS
                + " ms stream had a gap of " + worstGapMs + " ms");
    }
}
