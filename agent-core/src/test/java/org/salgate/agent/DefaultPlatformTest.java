package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.testing.FakeSession;
import org.salgate.agent.testing.FakeTransport;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.Value;

/** The default platform with the real dummy and OS plugins. */
@Timeout(120)
class DefaultPlatformTest {

    private static final Set<String> OS_SENSORS = Set.of("FREE_MEMORY", "CPU_USER", "CPU_NICE", "CPU_SYSTEM",
            "CPU_IDLE", "LOAD_AVG_1", "LOAD_AVG_5", "LOAD_AVG_15");

    @Test
    void defaultPlatformServes20DummyAndTheOsSensorsAndEveryDescriptionValidates() throws Exception {
        FakeTransport transport = new FakeTransport();
        try (Agent agent = Agent.builder().transport(transport).port(0).start()) {
            assertTrue(agent.pluginTypes().keySet().containsAll(Set.of("dummy", "os")),
                    "the dummy and os plugins are on the agent's class path: " + agent.pluginTypes().keySet());
            Map<String, List<SensorInfo>> byProtocol = agent.sensors().stream()
                    .collect(Collectors.groupingBy(SensorInfo::protocol));
            assertEquals(20, byProtocol.get("dummy").size());
            Set<String> os = byProtocol.get("os").stream().map(SensorInfo::id).collect(Collectors.toSet());
            assertTrue(os.containsAll(OS_SENSORS), "OS sensors: " + os);
            Set<String> extra = os.stream().filter(id -> !OS_SENSORS.contains(id)).collect(Collectors.toSet());
            assertTrue(extra.stream().allMatch(id -> id.contains("TEMPERATURE")), "only temperatures beyond 8: " + extra);
            assertEquals(28 + extra.size(), agent.sensors().size());

            FakeSession s = transport.server().open();
            transport.server().handler().messageReceived(s, org.salgate.wire.Hello.of("protobuf", "t"));
            long id = 1;
            for (SensorInfo sensor : agent.sensors()) {
                transport.server().handler().messageReceived(s,
                        new org.salgate.wire.Request(id, new Call.DescribeSensor(sensor.id())));
                long want = id++;
                Result r = s.await(org.salgate.wire.Response.class, x -> x.id() == want, 1, AgentFixture.WAIT_MS)
                        .get(0).result();
                String xml = ((Result.Document) r).xml();
                SensorMl.validate(xml);
                assertEquals(sensor.id(), SensorMl.read(xml).id());
            }
            long read = id;
            transport.server().handler().messageReceived(s,
                    new org.salgate.wire.Request(read, new Call.Execute("DUMMY_3", "read", Map.of())));
            Result r = s.await(org.salgate.wire.Response.class, x -> x.id() == read, 1, AgentFixture.WAIT_MS).get(0)
                    .result();
            Reading reading = ((Result.ReadingResult) r).reading();
            assertEquals(Reading.Status.OK, reading.status());
            assertTrue(reading.value() instanceof Value.Num);
        }
    }
}
