package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.mqtt.StreamSpec;

/**
 * The bridge in Sparkplug B mode against a real Mosquitto broker, checked by a host that decodes
 * with Eclipse Tahu ({@link SparkplugHost}): births before data, aliases that resolve, {@code seq}
 * without a gap across a wrap, the will's {@code bdSeq} matching the birth's when the agent process
 * is killed, births again on a rebirth request and on a reconnect, DDEATH for a removed sensor.
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttSparkplugTest extends BridgeFixture {

    private static final String GROUP = "it";
    private static final Set<String> DUMMIES = Set.of("DUMMY_0", "DUMMY_1", "DUMMY_2", "DUMMY_3");

    private MqttBridgeConfig.Builder sparkplug(Mosquitto broker) {
        return config(broker).sparkplug(GROUP, null).stream(StreamSpec.parse("DUMMY_0@10ms"))
                .stream(StreamSpec.parse("DUMMY_1@10ms"));
    }

    /** Asserts that {@code messages} are births, then data, with {@code seq} counting from 0 and wrapping at 255. */
    private static void assertBirthsThenData(List<SparkplugHost.Received> messages) {
        assertEquals("NBIRTH", messages.get(0).type());
        assertEquals(DUMMIES, messages.subList(1, 5).stream().peek(m -> assertEquals("DBIRTH", m.type()))
                .map(SparkplugHost.Received::device).collect(Collectors.toSet()), "a DBIRTH per sensor");
        for (int i = 0; i < messages.size(); i++) {
            SparkplugHost.Received m = messages.get(i);
            assertEquals(i % 256, m.seq(), "seq of message " + i + ": " + m.topic());
            if (i >= 5) {
                assertEquals("DDATA", m.type(), "message " + i);
            }
        }
    }

    @Test
    void birthsComeBeforeDataEveryAliasResolvesAndSeqRunsOnAcrossAWrap() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        SparkplugHost host = closing(SparkplugHost.start(broker.url(), GROUP));
        agent("it-spb", sparkplug(broker).build(), new AtomicReference<>());

        host.await(r -> host.of("it-spb").size() >= 320, WAIT, "320 messages of the node");
        List<SparkplugHost.Received> messages = host.of("it-spb").subList(0, 320);
        assertTrue(host.failures.isEmpty(), "Tahu decodes every payload: " + host.failures);
        assertBirthsThenData(messages);

        SparkplugHost.Received nbirth = messages.get(0);
        assertNotNull(nbirth.metric("bdSeq").value());
        assertEquals(Boolean.FALSE, nbirth.metric("Node Control/Rebirth").value());
        SparkplugHost.Resolved read = messages.get(1).metric("read");
        assertEquals("Double", read.datatype());
        assertEquals("1", read.engUnit(), "the unit of the dummy's read command");
        assertEquals("Bytes", messages.get(1).metric("payload").datatype());
        for (SparkplugHost.Received data : messages.subList(5, messages.size())) {
            assertEquals(1, data.metrics().size());
            SparkplugHost.Resolved m = data.metrics().get(0);
            assertEquals("read", m.name(), "the alias " + m.alias() + " of " + data.topic() + " resolves");
            assertTrue(m.value() instanceof Double, "a Double: " + m.value());
        }
    }

    /** A kill -9 leaves the broker to publish the will: an NDEATH whose bdSeq is that of the NBIRTH. */
    @Test
    void aKilledAgentProcessIsDeclaredDeadWithTheBdSeqOfItsBirth() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        SparkplugHost host = closing(SparkplugHost.start(broker.url(), GROUP));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process agent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "org.salgate.agent.cli.AgentMain", "--host", "127.0.0.1", "--port", "0", "--agent-id", "it-killed",
                "--dummy-sensors", "2", "--mqtt-url", broker.url(), "--mqtt-store", dir.resolve("killed.mv.db").toString(),
                "--mqtt-format", "sparkplug", "--sparkplug-group", GROUP, "--sparkplug-node", "killed-node",
                "--mqtt-stream", "DUMMY_0@100ms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        closing(() -> agent.destroyForcibly().waitFor());

        SparkplugHost.Received nbirth = host.await(r -> r.topic().equals("spBv1.0/it/NBIRTH/killed-node"),
                Duration.ofSeconds(60), "NBIRTH from the agent process");
        host.await(r -> r.type().equals("DDATA") && r.node().equals("killed-node"), WAIT, "data from the agent process");
        agent.destroyForcibly(); // SIGKILL: no DISCONNECT
        assertTrue(agent.waitFor(10, TimeUnit.SECONDS));

        SparkplugHost.Received ndeath = host.await(r -> r.topic().equals("spBv1.0/it/NDEATH/killed-node"), WAIT,
                "the NDEATH will");
        assertEquals(nbirth.metric("bdSeq").value(), ndeath.metric("bdSeq").value());
        assertNull(ndeath.seq(), "an NDEATH has no seq");
    }

    @Test
    void aRebirthRequestGetsTheBirthsAgainWithTheSameBdSeqBeforeMoreData() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        SparkplugHost host = closing(SparkplugHost.start(broker.url(), GROUP));
        agent("it-rebirth", sparkplug(broker).build(), new AtomicReference<>());
        host.await(r -> r.type().equals("DDATA"), WAIT, "data");

        host.requestRebirth(GROUP, "it-rebirth");

        host.await(r -> host.of("it-rebirth").stream().filter(m -> m.type().equals("NBIRTH")).count() == 2
                && host.of("it-rebirth").indexOf(r) > 0, WAIT, "a second NBIRTH");
        host.await(r -> lastBirthIndex(host.of("it-rebirth")) + 20 < host.of("it-rebirth").size(), WAIT,
                "data after the rebirth");
        List<SparkplugHost.Received> all = host.of("it-rebirth");
        int rebirth = lastBirthIndex(all);
        assertBirthsThenData(all.subList(rebirth, all.size()));
        assertEquals(all.get(0).metric("bdSeq").value(), all.get(rebirth).metric("bdSeq").value(),
                "the same connection, the same bdSeq");
        SparkplugHost.Received dbirth0 = all.subList(rebirth, rebirth + 5).stream()
                .filter(m -> "DUMMY_0".equals(m.device())).findFirst().orElseThrow();
        assertFalse(dbirth0.metric("read").isNull(), "a DBIRTH after data carries the latest value");
    }

    /**
     * Another client takes the bridge's client id: the broker drops the bridge, which connects again
     * with the next bdSeq and sends NBIRTH and DBIRTHs before anything else, then what it stored
     * meanwhile, with seq from 0.
     */
    @Test
    void aReconnectSendsNewBirthsBeforeTheReadingsStoredMeanwhile() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        SparkplugHost host = closing(SparkplugHost.start(broker.url(), GROUP));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        agent("it-reconnect", sparkplug(broker).build(), bridge);
        host.await(r -> host.of("it-reconnect").size() >= 30, WAIT, "30 messages");

        MqttAsyncClient intruder = new MqttAsyncClient(broker.url(), "salgate-it-reconnect", new MemoryPersistence());
        intruder.connect(new MqttConnectionOptions()).waitForCompletion(10_000);
        // The bridge takes its id back at its next attempt, which drops the intruder.
        host.await(r -> r.type().equals("NBIRTH") && host.of("it-reconnect").indexOf(r) > 0, WAIT,
                "the NBIRTH of the new connection");
        intruder.close(true);

        host.await(r -> lastBirthIndex(host.of("it-reconnect")) + 50 < host.of("it-reconnect").size(), WAIT,
                "data after the reconnect");
        List<SparkplugHost.Received> all = host.of("it-reconnect");
        int reborn = lastBirthIndex(all);
        SparkplugHost.Received nbirth = all.get(reborn);
        assertEquals(((Long) all.get(0).metric("bdSeq").value()) + 1, nbirth.metric("bdSeq").value(),
                "a new connection, the next bdSeq");
        List<SparkplugHost.Received> after = all.subList(reborn, all.size()).stream()
                .filter(m -> !m.type().equals("NDEATH")).toList();
        assertBirthsThenData(after);
        long storedBeforeBirth = after.subList(5, after.size()).stream()
                .filter(m -> m.metrics().get(0).timestamp() < nbirth.timestamp()).count();
        assertTrue(storedBeforeBirth > 0, "readings taken while disconnected come after the births");
    }

    @Test
    void aRemovedSensorsDeviceGetsADdeathInSequence() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        SparkplugHost host = closing(SparkplugHost.start(broker.url(), GROUP));
        Agent agent = agent("it-ddeath", sparkplug(broker).build(), new AtomicReference<>());
        host.await(r -> r.type().equals("DDATA"), WAIT, "data");

        SalClient admin = closing(SalClient.builder().port(agent.port()).connect());
        admin.removeSensor("DUMMY_1").get();

        SparkplugHost.Received ddeath = host.await(r -> r.type().equals("DDEATH"), WAIT, "a DDEATH");
        assertEquals("DUMMY_1", ddeath.device());
        List<SparkplugHost.Received> all = host.of("it-ddeath");
        int at = all.indexOf(ddeath);
        assertEquals((all.get(at - 1).seq() + 1) % 256, ddeath.seq(), "a DDEATH takes the next seq");
        Thread.sleep(500);
        List<SparkplugHost.Received> later = host.of("it-ddeath");
        assertTrue(later.subList(at + 1, later.size()).stream().noneMatch(m -> "DUMMY_1".equals(m.device())),
                "no data of the removed sensor after its DDEATH");
    }

    private static int lastBirthIndex(List<SparkplugHost.Received> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).type().equals("NBIRTH")) {
                return i;
            }
        }
        return -1;
    }
}
