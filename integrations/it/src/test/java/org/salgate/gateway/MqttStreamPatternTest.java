package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

/**
 * Streams that name sensors by a pattern ({@code *@50ms}, {@code DUMMY_2*@50ms}) follow the agent's
 * sensors as they are added and removed, and a streams file changes what is published while the
 * agent runs; against a real Mosquitto broker.
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttStreamPatternTest extends BridgeFixture {

    /** Long enough for several readings at 50 ms to arrive, were they still published. */
    private static final Duration QUIET = Duration.ofSeconds(2);

    private static void awaitReadings(Subscriber sub, Topics topics, String sensor, long atLeast)
            throws InterruptedException {
        sub.await(r -> r.topic().equals(topics.reading(sensor, "read")) && r.json().get("sequence").asLong() >= atLeast,
                WAIT, atLeast + 1 + " readings of " + sensor);
    }

    /** Asserts that no reading of {@code sensor} arrives for {@link #QUIET} (after one in flight may land). */
    private static void assertStopsPublishing(Subscriber sub, Topics topics, String sensor) throws InterruptedException {
        Thread.sleep(500);
        int before = sub.on(topics.reading(sensor, "read")).size();
        Thread.sleep(QUIET.toMillis());
        assertEquals(before, sub.on(topics.reading(sensor, "read")).size(), sensor + " is still published");
    }

    @Test
    void anAsteriskPublishesEverySensorIncludingOneAddedAtRunTimeAndStopsARemovedOne() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-star");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-star", topics.all()));
        Agent agent = agent("it-star", config(broker).stream(StreamSpec.parse("*@50ms")).build(), new AtomicReference<>());

        for (String sensor : List.of("DUMMY_0", "DUMMY_1", "DUMMY_2", "DUMMY_3")) {
            awaitReadings(sub, topics, sensor, 3);
        }

        SalClient admin = closing(SalClient.builder().port(agent.port()).connect());
        SensorDescription template = admin.describeSensor("DUMMY_0").get();
        admin.addSensor(SensorMl.write(new SensorDescription("DUMMY_LATE", "added at run time", template.protocol(),
                "", template.outputs(), template.sampling()))).get();
        awaitReadings(sub, topics, "DUMMY_LATE", 3);

        admin.removeSensor("DUMMY_1").get();
        assertStopsPublishing(sub, topics, "DUMMY_1");
        int late = sub.on(topics.reading("DUMMY_LATE", "read")).size();
        awaitReadings(sub, topics, "DUMMY_LATE", late + 3);
    }

    @Test
    void aPrefixPatternPublishesOnlyTheSensorsItMatches() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-prefix");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-prefix", topics.all()));
        agent("it-prefix", config(broker).stream(StreamSpec.parse("DUMMY_2*:read@50ms")).build(), new AtomicReference<>());

        awaitReadings(sub, topics, "DUMMY_2", 10);
        for (String other : List.of("DUMMY_0", "DUMMY_1", "DUMMY_3")) {
            assertTrue(sub.on(topics.reading(other, "read")).isEmpty(), other + " does not match DUMMY_2*");
        }
    }

    @Test
    void editingTheStreamsFileStartsAndStopsStreamsWhileTheAgentRuns() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-file");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-file", topics.all()));
        Path streams = Files.writeString(dir.resolve("streams"), "# what the bridge publishes\nDUMMY_0@50ms\n");
        agent("it-file", config(broker).streamsFile(streams).build(), new AtomicReference<>());
        awaitReadings(sub, topics, "DUMMY_0", 3);
        assertTrue(sub.on(topics.reading("DUMMY_3", "read")).isEmpty(), "DUMMY_3 is not in the file yet");

        Files.writeString(streams, "DUMMY_3@50ms\n");

        awaitReadings(sub, topics, "DUMMY_3", 3);
        assertStopsPublishing(sub, topics, "DUMMY_0");
    }
}
