package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.wire.Reading;
import org.salgate.wire.SensorInfo;

/** The embedding example of the README, as written there, so that it cannot go stale. */
@Timeout(60)
class ReadmeEmbeddingExampleTest {

    @Test
    void theReadmeEmbeddingExampleRunsAsWritten() throws Exception {
        List<Reading> printed = new CopyOnWriteArrayList<>();
        List<SensorInfo> sensors;
        Reading once;
        // --- as in README.md, with println replaced by collecting the readings
        try (Agent agent = Agent.builder()
                .transport("netty")
                .port(0)
                .platform(Agent.defaultPlatform(20))
                .start();
             SalClient client = SalClient.builder().transport("netty").port(agent.port()).connect()) {

            sensors = client.listSensors().get();
            once = client.execute("FREE_MEMORY", "read", Map.of()).get();

            SensorStream stream = client.stream("DUMMY_0", "read", Map.of(), 100,
                    reading -> printed.add(reading)).get();
            Thread.sleep(1_000);
            stream.stop().get();
        }
        // ---
        assertTrue(sensors.size() >= 28, "20 dummy + 8 OS sensors, got " + sensors.size());
        assertEquals(Reading.Status.OK, once.status());
        assertTrue(!printed.isEmpty(), "the stream delivered readings");
        for (int i = 0; i < printed.size(); i++) {
            assertEquals(i, printed.get(i).sequence());
        }
    }
}
