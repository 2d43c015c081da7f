package org.salgate.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.devices.DeviceAgent.channel;
import static org.salgate.devices.DeviceAgent.modbus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.SensorState;

/**
 * Devices that fail while the agent jar serves them: a real device (pymodbus) killed and restarted
 * mid-stream, a device that never answers, and one device down among ten; the other devices'
 * streams keep their rate all along.
 */
@Tag("devices")
@Timeout(120)
class OutageDeviceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long INTERVAL_MS = 100;
    /** Fast reconnects, so that a test sees the device's return within seconds. */
    private static final List<String> LANE = List.of("timeout-ms", "300", "request-timeout-ms", "1000",
            "reconnect-min-ms", "200", "reconnect-max-ms", "500");

    private static String meter(String name, String endpoint) {
        return modbus(name, endpoint, LANE, channel("voltage", "unit=\"V\" scale=\"0.1\"", "table", "input",
                "address", "0"));
    }

    private static void await(String what, long timeoutMs, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }

    private static long ok(List<Reading> readings) {
        return readings.stream().filter(r -> r.status() == Reading.Status.OK).count();
    }

    @Test
    void aDeviceKilledMidStreamGoesDisconnectedAndRecoversWhileAnotherKeepsItsRate() throws Exception {
        try (PymodbusServer a = PymodbusServer.start(); PymodbusServer b = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("netty", "127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port(),
                     meter("a", a.endpoint()), meter("b", b.endpoint()));
             SalClient client = agent.client()) {
            List<Event> events = new CopyOnWriteArrayList<>();
            client.subscribeEvents(events::add).get(20, TimeUnit.SECONDS);
            Recorded ra = new Recorded();
            Recorded rb = new Recorded();
            SensorStream sa = client.stream("a.voltage", "read", Map.of(), INTERVAL_MS, ra).get(20, TimeUnit.SECONDS);
            SensorStream sb = client.stream("b.voltage", "read", Map.of(), INTERVAL_MS, rb).get(20, TimeUnit.SECONDS);
            long start = System.nanoTime();
            Thread.sleep(3000);
            long killed = System.nanoTime();
            a.stop();
            await("a.voltage DISCONNECTED", 5000, () -> events.stream().anyMatch(e -> e.type() == Event.Type.SENSOR_STATE
                    && e.subject().equals("a.voltage") && e.state() == SensorState.DISCONNECTED));
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(killed + TimeUnit.SECONDS.toNanos(3) - System.nanoTime())));
            long restarted = System.nanoTime();
            a.restart();
            await("an OK reading of a.voltage after its device's restart", 10_000,
                    () -> ok(ra.between(restarted, Long.MAX_VALUE)) > 0);
            long recovered = System.nanoTime();
            Thread.sleep(1000);
            sa.stop().get(20, TimeUnit.SECONDS);
            sb.stop().get(20, TimeUnit.SECONDS);
            long end = System.nanoTime();

            double before = rb.rate(start + TimeUnit.SECONDS.toNanos(1), killed);
            double during = rb.rate(killed, restarted);
            System.out.printf("b.voltage: %.1f readings/s before the outage of a, %.1f during it (interval %d ms)%n",
                    before, during, INTERVAL_MS);
            assertTrue(before >= 8, "b's rate before: " + before);
            assertTrue(during >= 0.8 * before, "b's rate fell from " + before + " to " + during + " during a's outage");
            assertEquals(0, ok(rb.between(start, end)) - rb.between(start, end).size(), "every reading of b is OK");

            // a: every tick gave a reading, in sequence; only those of the outage are not OK
            assertEquals(-1, ra.firstBreakInSequence(), "a's readings are in sequence");
            assertEquals(0, ra.gaps());
            List<Reading> outage = ra.between(killed, recovered);
            long outageTicks = (recovered - killed) / TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS);
            long failed = outage.size() - ok(outage);
            System.out.printf("a.voltage: %d readings in %.1f s, %d not OK during the %.1f s outage (%d ticks)%n",
                    ra.arrivals().size(), (end - start) / 1e9, failed, (recovered - killed) / 1e9, outageTicks);
            assertTrue(failed <= outageTicks + 2, failed + " readings failed for " + outageTicks + " ticks of outage");
            assertEquals(ra.between(start, killed).size(), ok(ra.between(start, killed)), "a's readings before");
            assertEquals(ra.between(recovered, end).size(), ok(ra.between(recovered, end)), "a's readings after");
            double aRate = ra.arrivals().size() / ((end - start) / 1e9);
            assertTrue(aRate >= 8, "a's stream ticked " + aRate + " times a second through its outage");
            assertTrue(outage.stream().filter(r -> r.status() != Reading.Status.OK)
                    .allMatch(r -> r.error().contains("device a (tcp:127.0.0.1:" + a.port() + ")")), outage.toString());

            // the state events: disconnected, then back
            List<SensorState> states = events.stream().filter(e -> e.type() == Event.Type.SENSOR_STATE
                    && e.subject().equals("a.voltage")).map(Event::state).toList();
            int down = states.indexOf(SensorState.DISCONNECTED);
            assertTrue(down >= 0 && states.subList(down, states.size()).stream()
                    .anyMatch(s -> s != SensorState.DISCONNECTED), states.toString());
            assertTrue(events.stream().noneMatch(e -> e.subject().equals("b.voltage")
                    && e.state() == SensorState.DISCONNECTED), events.toString());
        }
    }

    @Test
    void aDeviceThatNeverAnswersTimesOutWithinItsBound() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             PymodbusServer live = PymodbusServer.start()) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = mute.accept();
                        held.add(s);
                    }
                } catch (IOException closed) {
                    // the test ended
                }
            }, "mute-device");
            acceptor.setDaemon(true);
            acceptor.start();
            String endpoint = "tcp:127.0.0.1:" + mute.getLocalPort();
            // the driver's timeout-ms bounds the first; the agent's request-timeout-ms the second
            String driverBound = modbus("quick", endpoint, List.of("timeout-ms", "500", "request-timeout-ms", "3000"),
                    channel("voltage", "", "table", "input", "address", "0"));
            String laneBound = modbus("slow", endpoint, List.of("timeout-ms", "10000", "request-timeout-ms", "1500"),
                    channel("voltage", "", "table", "input", "address", "0"));
            try (DeviceAgent agent = DeviceAgent.start("http", "127.0.0.1:" + mute.getLocalPort() + ",127.0.0.1:"
                    + live.port(), driverBound, laneBound, meter("live", live.endpoint()))) {
                // the first REST call of an agent pays for its warm-up: a read of the live device takes it
                assertEquals(200, agent.post("/api/sensors/live.voltage/commands/read", "application/json", "{}")
                        .status());
                long t0 = System.nanoTime();
                DeviceAgent.Answer quick = agent.post("/api/sensors/quick.voltage/commands/read", "application/json", "{}");
                long quickMs = (System.nanoTime() - t0) / 1_000_000;
                long t1 = System.nanoTime();
                DeviceAgent.Answer slow = agent.post("/api/sensors/slow.voltage/commands/read", "application/json", "{}");
                long slowMs = (System.nanoTime() - t1) / 1_000_000;
                long t2 = System.nanoTime();
                DeviceAgent.Answer live1 = agent.post("/api/sensors/live.voltage/commands/read", "application/json", "{}");
                long liveMs = (System.nanoTime() - t2) / 1_000_000;
                System.out.printf("mute device: quick (timeout-ms 500) answered in %d ms: %s%n", quickMs, quick.body());
                System.out.printf("mute device: slow (request-timeout-ms 1500) answered in %d ms: %s%n", slowMs,
                        slow.body());
                System.out.printf("live device meanwhile: %d ms: %s%n", liveMs, live1.body());
                // the driver's timeout: the device is taken for lost, and reconnected after the backoff
                assertEquals("DISCONNECTED", quick.json().get("status").asText(), quick.body());
                assertTrue(quick.body().contains("did not answer (timeout-ms 500)"), quick.body());
                // past timeout-ms 500, and well within the agent's own bound, request-timeout-ms 3000
                assertTrue(quickMs >= 400 && quickMs < 2500, quickMs + " ms");
                assertEquals("ERROR", slow.json().get("status").asText(), slow.body());
                assertTrue(slow.body().contains("did not answer within 1500 ms"), slow.body());
                assertTrue(slowMs >= 1400 && slowMs < 3000, slowMs + " ms");
                assertEquals("OK", live1.json().get("status").asText(), live1.body());
                assertEquals(230.1, live1.json().get("value").asDouble(), 1e-9);
                assertTrue(liveMs < 1000, "the live device answered in " + liveMs + " ms");
                assertTrue(agent.isAlive());
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void tenDevicesOneDownTheNineOthersKeepTheirRate() throws Exception {
        List<PymodbusServer> devices = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                devices.add(PymodbusServer.start());
            }
            PymodbusServer down = devices.get(4);
            down.stop();
            List<String> protocols = new ArrayList<>();
            List<String> allowed = new ArrayList<>();
            for (int i = 0; i < devices.size(); i++) {
                protocols.add(meter("m" + i, devices.get(i).endpoint()));
                allowed.add("127.0.0.1:" + devices.get(i).port());
            }
            try (DeviceAgent agent = DeviceAgent.start("netty", String.join(",", allowed),
                    protocols.toArray(String[]::new));
                 SalClient client = agent.client()) {
                List<Recorded> recorded = new ArrayList<>();
                List<SensorStream> streams = new ArrayList<>();
                for (int i = 0; i < devices.size(); i++) {
                    Recorded r = new Recorded();
                    recorded.add(r);
                    streams.add(client.stream("m" + i + ".voltage", "read", Map.of(), INTERVAL_MS, r)
                            .get(20, TimeUnit.SECONDS));
                }
                Thread.sleep(1000);
                long from = System.nanoTime();
                Thread.sleep(5000);
                long to = System.nanoTime();
                for (SensorStream s : streams) {
                    s.stop().get(20, TimeUnit.SECONDS);
                }
                StringBuilder rates = new StringBuilder();
                for (int i = 0; i < devices.size(); i++) {
                    rates.append(String.format(" m%d %.1f/s", i, recorded.get(i).rate(from, to)));
                }
                System.out.println("ten devices, m4 down, readings per second:" + rates);
                for (int i = 0; i < devices.size(); i++) {
                    Recorded r = recorded.get(i);
                    List<Reading> window = r.between(from, to);
                    assertEquals(-1, r.firstBreakInSequence(), "m" + i);
                    assertTrue(r.rate(from, to) >= 8, "m" + i + ": " + rates);
                    if (i == 4) {
                        assertEquals(0, ok(window), "m4 is down");
                        assertTrue(window.stream().allMatch(x -> x.error().contains("is disconnected")),
                                window.get(0).toString());
                    } else {
                        assertEquals(window.size(), ok(window), "m" + i + ": every reading OK");
                    }
                }
                assertEquals(SensorState.DISCONNECTED, client.listSensors().get(20, TimeUnit.SECONDS).stream()
                        .filter(s -> s.id().equals("m4.voltage")).findFirst().orElseThrow().state());
            }
        } finally {
            for (PymodbusServer d : devices) {
                d.close();
            }
        }
    }

    /**
     * The readings of a Server-Sent Events stream of the agent's REST API, for {@code ms} milliseconds
     * from its first reading.
     */
    private static List<JsonNode> sse(DeviceAgent agent, String path, long ms) throws Exception {
        List<JsonNode> readings = new CopyOnWriteArrayList<>();
        HttpRequest request = HttpRequest.newBuilder(agent.uri(path)).header("Accept", "text/event-stream").build();
        CompletableFuture<HttpResponse<Stream<String>>> response = agent.http().sendAsync(request,
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> {
            try (Stream<String> lines = response.get(20, TimeUnit.SECONDS).body()) {
                lines.filter(l -> l.startsWith("data:")).forEach(l -> {
                    try {
                        readings.add(JSON.readTree(l.substring("data:".length())));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (Exception | Error e) {
                // the stream was closed by the test
            }
        }, "sse-" + path);
        reader.setDaemon(true);
        reader.start();
        await("the first reading of " + path, 20_000, () -> !readings.isEmpty());
        Thread.sleep(ms);
        response.cancel(true);
        reader.interrupt();
        return List.copyOf(readings);
    }

    @Test
    void overRestAStreamKeepsItsRateWhileAnotherDeviceIsDown() throws Exception {
        try (PymodbusServer live = PymodbusServer.start(); PymodbusServer dead = PymodbusServer.start()) {
            dead.stop();
            try (DeviceAgent agent = DeviceAgent.start("http", "127.0.0.1:" + live.port() + ",127.0.0.1:"
                    + dead.port(), meter("live", live.endpoint()), meter("dead", dead.endpoint()))) {
                CompletableFuture<List<JsonNode>> deadReadings = CompletableFuture.supplyAsync(() -> {
                    try {
                        return sse(agent, "/api/sensors/dead.voltage/stream?interval=" + INTERVAL_MS, 3000);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                List<JsonNode> liveReadings = sse(agent, "/api/sensors/live.voltage/stream?interval=" + INTERVAL_MS, 3000);
                List<JsonNode> down = deadReadings.get(20, TimeUnit.SECONDS);
                System.out.printf("over REST, 3 s at %d ms: live.voltage %d readings, dead.voltage %d readings%n",
                        INTERVAL_MS, liveReadings.size(), down.size());
                assertTrue(liveReadings.size() >= 24, liveReadings.size() + " readings of live.voltage in 3 s");
                for (int i = 0; i < liveReadings.size(); i++) {
                    JsonNode r = liveReadings.get(i);
                    assertEquals(i, r.get("sequence").asLong(), r.toString());
                    assertEquals("OK", r.get("status").asText(), r.toString());
                    assertEquals(230.1, r.get("value").asDouble(), 1e-9);
                }
                assertTrue(down.size() >= 24, down.size() + " readings of dead.voltage in 3 s");
                assertTrue(down.stream().allMatch(r -> r.get("status").asText().equals("DISCONNECTED")
                        && r.get("error").asText().contains("is disconnected")), down.toString());
            }
        }
    }
}
