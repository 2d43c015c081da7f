package org.salgate.influx.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.transport.tck.AgentProcess;

/**
 * The agent jar as a user runs it, three dummy sensors streamed to a real InfluxDB 1.x with
 * {@code --influx-*}, read back over InfluxDB's query API.
 */
@Tag("influx")
class InfluxWriteTest {

    private static final String AGENT_ID = "gw-test";
    private static final List<String> SENSORS = List.of("DUMMY_0", "DUMMY_1", "DUMMY_2");
    private static final long INTERVAL_MS = 100;

    /** One point as read back: its time (µs) and the reading's sequence number, with the series' tags. */
    record Point(long timeMicros, long sequence, JsonNode tags) {}

    @TempDir
    Path dir;

    private InfluxServer influx;
    private AgentProcess agent;

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (influx != null) {
            influx.close();
        }
    }

    private void startAgent(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--agent-id", AGENT_ID, "--dummy-sensors", "" + SENSORS.size(),
                "--state-dir", dir.resolve("state").toString(),
                "--influx-url", influx.url(), "--influx-db", "lab",
                "--influx-stream", "DUMMY_*@" + INTERVAL_MS + "ms", "--influx-linger", "200ms",
                "--influx-retry-max", "2s"));
        args.addAll(List.of(more));
        agent = AgentProcess.start("netty", 0, List.of(), args);
    }

    private void startInflux() throws Exception {
        Path home = Files.createDirectories(dir.resolve("influx"));
        influx = InfluxServer.start(home);
        influx.query(null, "CREATE DATABASE lab");
    }

    @Test
    void everyReadingIsOnePointWithItsTagsAndTimestamp() throws Exception {
        startInflux();
        long before = nowMicros();
        startAgent();
        Thread.sleep(3000);
        String output = "agent output:\n" + String.join("\n", agent.outputLines());
        agent.close();
        long after = nowMicros();
        agent = null;

        Map<String, List<Point>> points = points();
        assertEquals(SENSORS, new ArrayList<>(points.keySet()), output);
        for (Map.Entry<String, List<Point>> e : points.entrySet()) {
            List<Point> series = e.getValue();
            assertTrue(series.size() >= 15, e.getKey() + " has " + series.size() + " points in 3 s at 100 ms");
            long previous = before;
            for (int i = 0; i < series.size(); i++) {
                Point p = series.get(i);
                assertEquals(i, p.sequence(), e.getKey() + ": the readings in time order are numbered 0, 1, 2...");
                assertTrue(p.timeMicros() > previous && p.timeMicros() < after,
                        e.getKey() + " point " + i + " at " + p.timeMicros() + " is after the one before (" + previous
                                + ") and before the agent stopped (" + after + ")");
                previous = p.timeMicros();
                JsonNode tags = p.tags();
                assertEquals(AGENT_ID, tags.path("agent").asText());
                assertEquals(e.getKey(), tags.path("sensor").asText());
                assertEquals("read", tags.path("command").asText());
                assertEquals("1", tags.path("unit").asText(), "the dummy sensors' unit, UCUM's 1");
            }
        }
    }

    @Test
    void serverStoppedForThirtySecondsLosesNothingWithinTheStoresBound() throws Exception {
        startInflux();
        startAgent("--influx-store-max", "5000");
        Thread.sleep(3000);
        influx.stop();
        long down = nowMicros();
        Thread.sleep(30_000);
        long up = nowMicros();
        influx.launch();
        awaitDrained(Duration.ofSeconds(60));
        List<String> output = agent.outputLines();
        agent.close();
        agent = null;
        assertTrue(output.stream().anyMatch(l -> l.contains("cannot reach InfluxDB " + influx.url())),
                "the agent said it could not reach InfluxDB:\n" + String.join("\n", output));

        Map<String, List<Point>> points = points();
        assertEquals(SENSORS, new ArrayList<>(points.keySet()), String.join("\n", output));
        for (Map.Entry<String, List<Point>> e : points.entrySet()) {
            List<Point> series = e.getValue();
            for (int i = 0; i < series.size(); i++) {
                assertEquals(i, series.get(i).sequence(), e.getKey() + ": no reading lost nor written twice");
            }
            long duringOutage = series.stream().filter(p -> p.timeMicros() > down && p.timeMicros() < up).count();
            assertTrue(duringOutage >= 30_000 / INTERVAL_MS * 8 / 10, e.getKey() + " has " + duringOutage
                    + " points read while InfluxDB was down for 30 s at one per " + INTERVAL_MS + " ms");
        }
    }

    /** Waits until every sensor's points are numbered without a gap up to the last, the last read after the restart. */
    private void awaitDrained(Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long restarted = nowMicros();
        while (System.nanoTime() < deadline) {
            Map<String, List<Point>> points = points();
            boolean caughtUp = points.size() == SENSORS.size() && points.values().stream().allMatch(series ->
                    series.get(series.size() - 1).sequence() == series.size() - 1
                            && series.get(series.size() - 1).timeMicros() > restarted);
            if (caughtUp) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the agent's backlog did not reach InfluxDB within " + limit + "; agent output:\n"
                + String.join("\n", agent.outputLines()));
    }

    /** Every point of measurement salgate, by sensor, in time order. */
    private Map<String, List<Point>> points() throws Exception {
        JsonNode result = influx.query("lab", "SELECT \"sequence\" FROM \"salgate\" GROUP BY *");
        Map<String, List<Point>> bySensor = new TreeMap<>();
        for (JsonNode series : result.path("series")) {
            JsonNode tags = series.path("tags");
            List<Point> list = bySensor.computeIfAbsent(tags.path("sensor").asText(), k -> new ArrayList<>());
            for (JsonNode row : series.path("values")) {
                list.add(new Point(row.path(0).asLong(), row.path(1).asLong(), tags));
            }
        }
        return bySensor;
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
