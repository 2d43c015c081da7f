package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.ErrorCode;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.Value;

/** An upper agent serving a lower agent's sensors through the {@code agent} plugin, driven by the client. */
@Timeout(60)
class AgentOfAgentsTest {

    private static final long AWAIT_SECONDS = 20;

    private final RelayFixture fixture = new RelayFixture();

    @AfterEach
    void closeAgents() {
        fixture.close();
    }

    @Test
    void upperListsTheLowerSensorsUnderThePrefixBesideItsOwn() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(), Map.of())));

        List<SensorInfo> sensors = upper.listSensors().get();
        List<String> ids = sensors.stream().map(SensorInfo::id).toList();
        assertEquals(List.of("DUMMY_0", "DUMMY_1", "lab.DUMMY_0", "lab.DUMMY_1", "lab.DUMMY_2"), ids);
        assertEquals("lab", sensors.get(2).protocol());
        ProtocolInfo lab = upper.listProtocols().get().stream().filter(p -> p.name().equals("lab")).findFirst()
                .orElseThrow();
        assertEquals("agent:127.0.0.1:" + lower.port(), lab.endpoint());
        assertEquals(RelayFixture.LOWER_SENSORS, lab.sensorCount());
    }

    @Test
    void describeGivesValidSensorMlWithThePrefixedIdAndTheLowerCommands() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        SalClient direct = fixture.client(lower);
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(), Map.of())));

        String xml = upper.describeSensorXml("lab.DUMMY_1").get();
        assertDoesNotThrow(() -> SensorMl.validate(xml), xml);
        SensorDescription relayed = SensorMl.read(xml);
        SensorDescription original = direct.describeSensor("DUMMY_1").get();
        assertEquals("lab.DUMMY_1", relayed.id());
        assertEquals("lab", relayed.protocol());
        assertEquals("DUMMY_1", relayed.address());
        assertEquals(original.description(), relayed.description());
        assertEquals(original.outputs(), relayed.outputs());
        assertEquals(original.sampling(), relayed.sampling());
        assertEquals(direct.listCommands("DUMMY_1").get(), upper.listCommands("lab.DUMMY_1").get());
    }

    @Test
    void executeReturnsTheLowerReadingUnderTheUpperId() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(), Map.of())));

        Reading read = upper.execute("lab.DUMMY_2", "read", Map.of()).get();
        assertEquals(Reading.Status.OK, read.status(), read.error());
        assertEquals("lab.DUMMY_2", read.sensorId());
        assertEquals(new Value.Num(42.0), read.value());
        Reading payload = upper.execute("lab.DUMMY_2", "payload", Map.of("size", "300")).get();
        assertEquals(Reading.Status.OK, payload.status(), payload.error());
        assertEquals(300, assertInstanceOf(Value.Bytes.class, payload.value()).value().length);
    }

    @Test
    void streamOfARelayedSensorDeliversReadingsInSequence() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lower.port(), Map.of())));
        int wanted = 20;
        BlockingQueue<Reading> readings = new ArrayBlockingQueue<>(1000);
        SensorStream stream = upper.stream("lab.DUMMY_0", "read", Map.of(), 10, readings::offer).get();
        List<Reading> got = new ArrayList<>();
        while (got.size() < wanted) {
            Reading r = readings.poll(AWAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(r, "only " + got.size() + " readings arrived");
            got.add(r);
        }
        stream.stop().get();
        for (int i = 0; i < wanted; i++) {
            Reading r = got.get(i);
            assertEquals(i, r.sequence());
            assertEquals("lab.DUMMY_0", r.sensorId());
            assertEquals(Reading.Status.OK, r.status(), r.error());
            assertEquals(new Value.Num(42.0), r.value());
        }
    }

    @Test
    void stoppingTheLowerAgentFailsRelayedReadsClearlyWhileTheUpperServesItsOwn() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        int lowerPort = lower.port();
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lowerPort, Map.of())));
        BlockingQueue<Reading> readings = new ArrayBlockingQueue<>(10_000);
        List<String> ended = new ArrayList<>();
        SensorStream stream = upper.stream("lab.DUMMY_0", "read", Map.of(), 20, new StreamListener() {
            @Override
            public void onReading(Reading reading) {
                readings.offer(reading);
            }

            @Override
            public void onEnded(String reason) {
                synchronized (ended) {
                    ended.add(reason);
                }
            }
        }).get();
        assertEquals(Reading.Status.OK, readings.poll(AWAIT_SECONDS, TimeUnit.SECONDS).status());

        lower.close();

        Reading failed = await("a relayed read to fail", () -> {
            Reading r = upper.execute("lab.DUMMY_0", "read", Map.of()).join();
            return r.status() == Reading.Status.DISCONNECTED ? r : null;
        });
        assertTrue(failed.error().contains("lower agent at 127.0.0.1:" + lowerPort), failed.error());
        assertEquals(SensorState.DISCONNECTED, state(upper, "lab.DUMMY_0"));
        assertEquals(SensorState.IDLE, state(upper, "DUMMY_0"));
        Reading streamed = await("a streamed reading to fail", () -> {
            Reading r = readings.poll();
            return r != null && r.status() == Reading.Status.DISCONNECTED ? r : null;
        });
        assertEquals("lab.DUMMY_0", streamed.sensorId());
        assertTrue(streamed.error().contains("lower agent at 127.0.0.1:" + lowerPort), streamed.error());

        Reading own = upper.execute("DUMMY_0", "read", Map.of()).get();
        assertEquals(Reading.Status.OK, own.status(), own.error());

        upper.removeProtocol("lab").get();
        assertEquals(List.of("DUMMY_0", "DUMMY_1"), upper.listSensors().get().stream().map(SensorInfo::id).toList());
        stream.stop().get();
        synchronized (ended) {
            assertFalse(ended.isEmpty(), "the relayed stream did not end with its protocol");
        }
    }

    @Test
    void relayedReadsRecoverWhenTheLowerAgentIsBack() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        int lowerPort = lower.port();
        SalClient upper = fixture.client(fixture.upperAgent(RelayFixture.relay(lowerPort, Map.of("retryMs", "50"))));
        lower.close();
        await("a relayed read to fail", () -> {
            Reading r = upper.execute("lab.DUMMY_1", "read", Map.of()).join();
            return r.status() == Reading.Status.DISCONNECTED ? r : null;
        });
        assertEquals(SensorState.DISCONNECTED, state(upper, "lab.DUMMY_1"));

        fixture.lowerAgent(lowerPort);

        Reading back = await("a relayed read to succeed again", () -> {
            Reading r = upper.execute("lab.DUMMY_1", "read", Map.of()).join();
            return r.status() == Reading.Status.OK ? r : null;
        });
        assertEquals(new Value.Num(42.0), back.value());
        assertEquals(SensorState.IDLE, state(upper, "lab.DUMMY_1"));
    }

    private static SensorState state(SalClient client, String sensorId) {
        return client.listSensors().join().stream().filter(s -> s.id().equals(sensorId)).findFirst()
                .orElseThrow(() -> new AssertionError("no sensor " + sensorId)).state();
    }

    @Test
    void addProtocolAtRunTimeFromTheDocumentedPcml() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        SalClient upper = fixture.client(fixture.upperAgent());
        String example = Files.readString(Path.of("..", "..", "docs", "examples", "upper-agent.pcml"));
        // The example's own platform (os + lab), with lab pointed at this test's lower agent.
        String pcml = example.replace("<protocol name=\"os\" type=\"os\" endpoint=\"os\"/>", "")
                .replace("agent:127.0.0.1:7432", "agent:127.0.0.1:" + lower.port());
        assertTrue(pcml.contains("agent:127.0.0.1:" + lower.port()), "the example no longer relays 127.0.0.1:7432");

        List<ProtocolInfo> added = upper.addProtocol(pcml).get();
        assertEquals(1, added.size());
        assertEquals("lab", added.get(0).name());
        assertEquals(RelayFixture.LOWER_SENSORS, added.get(0).sensorCount());
        assertEquals(Reading.Status.OK, upper.execute("lab.DUMMY_0", "read", Map.of()).get().status());
    }

    @Test
    void badConfigurationFailsAddProtocolWithTheReasonForTheClient() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        int port = lower.port();
        lower.close();
        SalClient upper = fixture.client(fixture.upperAgent());

        SalException unreachable = addFails(upper, "agent:127.0.0.1:" + port, "");
        assertEquals(ErrorCode.PLUGIN_FAILURE, unreachable.code());
        assertTrue(unreachable.getMessage().contains("could not open protocol lab: cannot reach the lower agent at "
                + "127.0.0.1:" + port + " over netty"), unreachable.getMessage());

        SalException noPort = addFails(upper, "agent:127.0.0.1", "");
        assertTrue(noPort.getMessage().contains("is not an allowed relay target"), noPort.getMessage());

        SalException transport = addFails(upper, "agent:127.0.0.1:" + port,
                "<parameter name=\"transport\" value=\"pigeon\"/>");
        assertTrue(transport.getMessage().contains("unknown transport 'pigeon'; available: "), transport.getMessage());

        SalException noAddress = addFails(upper, "agent", "");
        assertEquals(ErrorCode.INVALID_ARGUMENT, noAddress.code());
        assertTrue(noAddress.getMessage().contains("agent:host:port"), noAddress.getMessage());

        assertEquals(List.of("dummy"), upper.listProtocols().get().stream().map(ProtocolInfo::name).toList());
    }

    @Test
    void relayTargetsOutsideTheAllowListGetOneRefusalAndTheAgentKeepsServing() throws Exception {
        Agent lower = fixture.lowerAgent(0);
        Agent other = fixture.lowerAgent(0);
        int closedPort = other.port();
        SalClient upper = fixture.client(fixture.upperAgentAllowing(List.of("127.0.0.1:" + lower.port())));
        String refusal = "is not an allowed relay target: this agent connects only to the HOST:PORT entries its "
                + "operator gives with --relay-allow";
        other.close();
        for (String endpoint : List.of("agent:localhost:" + lower.port(), "agent:127.0.0.1:" + closedPort,
                "agent:127.0.0.1:1", "agent:192.0.2.1:7431")) {
            SalException e = addFails(upper, endpoint, "");
            assertEquals(ErrorCode.INVALID_ARGUMENT, e.code(), e.getMessage());
            assertEquals("protocol lab: endpoint '" + endpoint + "' " + refusal, e.getMessage());
        }
        assertEquals(List.of("dummy"), upper.listProtocols().get().stream().map(ProtocolInfo::name).toList());
        upper.addProtocol(RelayFixture.pcml("agent:127.0.0.1:" + lower.port())).get();
        assertEquals(Reading.Status.OK, upper.execute("lab.DUMMY_0", "read", Map.of()).get().status());
    }

    private static SalException addFails(SalClient client, String endpoint, String parameters) {
        String pcml = "<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"lab\" type=\"agent\" endpoint=\""
                + endpoint + "\">" + parameters + "</protocol></platform>";
        try {
            client.addProtocol(pcml).join();
        } catch (CompletionException e) {
            return assertInstanceOf(SalException.class, e.getCause());
        }
        return fail("adding " + endpoint + " succeeded");
    }

    private static <T> T await(String what, Supplier<T> probe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            T value = probe.get();
            if (value != null) {
                return value;
            }
            Thread.sleep(20);
        }
        return fail("timed out waiting for " + what);
    }
}
