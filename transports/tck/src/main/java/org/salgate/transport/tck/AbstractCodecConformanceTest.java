package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.transport.TransportProvider;
import org.salgate.wire.Codecs;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.Value;

/**
 * The codec conformance suite: for every codec on the class path, and gzip around each, a real
 * {@link Agent} with that codec on the transport under test serves a real {@link SalClient} with
 * the same codec (list, describe, execute, an 80 KB stream), and refuses
 * a client that speaks another codec with a clear reason. A transport's test extends this class and
 * implements {@link #provider()}; the codecs module must be on its test class path.
 */
public abstract class AbstractCodecConformanceTest {

    /** Dummy sensors on every test agent. */
    protected static final int DUMMY_SENSORS = 4;
    /** The payload of the large streaming readings: 80 KB, as in the bench. */
    protected static final int LARGE_PAYLOAD_BYTES = 81_920;
    /** How many 80 KB readings each codec streams. */
    protected static final int STREAMED_READINGS = 12;
    /** The codecs the suite expects at least, so that a missing codecs module fails loudly. */
    protected static final Set<String> EXPECTED = Set.of("protobuf", "json", "msgpack", "xml", "java");

    private static final String GZIP = "+gzip";
    private static volatile String referenceSensorMl;

    private final List<AutoCloseable> resources = Collections.synchronizedList(new ArrayList<>());

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /** Applies the transport's own agent settings, if any; the default changes nothing. */
    protected AgentBuilder configure(AgentBuilder builder) {
        return builder;
    }

    /** Applies the transport's own client settings, if any; the default changes nothing. */
    protected SalClient.Builder configure(SalClient.Builder builder) {
        return builder;
    }

    /** Every codec on the class path, and the gzip variant of each that has one. */
    static Stream<String> codecs() {
        Set<String> names = new TreeSet<>(Codecs.available().keySet());
        for (String n : Set.copyOf(names)) {
            if (!n.endsWith(GZIP) && Codecs.available().containsKey(n + GZIP)) {
                names.add(n + GZIP);
            }
        }
        return names.stream();
    }

    @AfterEach
    void closeEverything() {
        List<AutoCloseable> toClose = new ArrayList<>(resources);
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // a client that broke is reported by its test
            }
        }
        resources.clear();
    }

    private Agent startAgent(String codec) throws IOException {
        AgentBuilder builder = Agent.builder().transport(provider()).host("127.0.0.1").port(0).codec(codec)
                .platform(new PlatformConfig(List.of(new ProtocolConfig("dummy", "dummy", "virtual",
                        Map.of("sensors", Integer.toString(DUMMY_SENSORS))))))
                .agentId("tck-codec-agent");
        configure(builder);
        Agent agent = builder.start();
        resources.add(agent::close);
        return agent;
    }

    private SalClient client(String name, String codec, int port) throws IOException {
        SalClient.Builder builder = SalClient.builder().transport(provider()).host("127.0.0.1").port(port)
                .codec(codec).clientName(name).connectTimeout(Duration.ofSeconds(5))
                .requestTimeout(Duration.ofSeconds(20));
        configure(builder);
        SalClient c = builder.connect();
        resources.add(c);
        return c;
    }

    /** The SensorML of DUMMY_1 as the default codec carries it, fetched once per run. */
    private String referenceSensorMl() throws IOException {
        String reference = referenceSensorMl;
        if (reference == null) {
            Agent agent = startAgent(Codecs.DEFAULT);
            reference = Await.result("describe over " + Codecs.DEFAULT,
                    client("reference", Codecs.DEFAULT, agent.port()).describeSensorXml("DUMMY_1"));
            referenceSensorMl = reference;
        }
        return reference;
    }

    @Test
    void theCodecsModuleIsOnTheClassPath() {
        Set<String> names = codecs().collect(Collectors.toSet());
        assertTrue(names.containsAll(EXPECTED), "codecs found: " + names);
        for (String n : EXPECTED) {
            assertTrue(names.contains(n + GZIP), "no gzip variant of " + n + " in " + names);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    @Timeout(60)
    void servesTheSalApiWithTheCodec(String codec) throws Exception {
        String reference = referenceSensorMl();
        Agent agent = startAgent(codec);
        assertEquals(codec, agent.codecName());
        SalClient client = client("codec-" + codec, codec, agent.port());

        List<SensorInfo> sensors = Await.result("list sensors over " + codec, client.listSensors());
        Set<String> ids = sensors.stream().map(SensorInfo::id).collect(Collectors.toSet());
        for (int i = 0; i < DUMMY_SENSORS; i++) {
            assertTrue(ids.contains("DUMMY_" + i), "DUMMY_" + i + " missing over " + codec + ": " + ids);
        }

        String xml = Await.result("describe over " + codec, client.describeSensorXml("DUMMY_1"));
        assertEquals(reference, xml, codec + " changed the SensorML document");
        SensorMl.validate(xml);
        SensorDescription parsed = SensorMl.read(xml);
        assertEquals("DUMMY_1", parsed.id());

        Reading read = Await.result("execute read over " + codec, client.execute("DUMMY_1", "read", Map.of()));
        assertEquals(Reading.Status.OK, read.status(), read.error());
        assertInstanceOf(Value.Num.class, read.value());

        RecordingStreamListener listener = RecordingStreamListener.fast(codec);
        SensorStream stream = Await.result("80 KB stream over " + codec, client.stream("DUMMY_2", "payload",
                Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES)), 0, listener));
        Await.until(() -> "80 KB readings over " + codec + ": " + listener, Await.DEFAULT,
                () -> listener.received() >= STREAMED_READINGS || listener.violation() != null);
        Await.result("stop the stream over " + codec, stream.stop());
        assertNull(listener.violation(), listener.toString());
        assertEquals(listener.received(), listener.ok(), "readings that were not OK: " + listener);
        Value last = listener.last().value();
        assertEquals(LARGE_PAYLOAD_BYTES, assertInstanceOf(Value.Bytes.class, last).value().length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    @Timeout(60)
    void aClientWithAnotherCodecIsRefusedWithAReason(String codec) throws Exception {
        Agent agent = startAgent(codec);
        String other = codec.equals(Codecs.DEFAULT) ? "json" : Codecs.DEFAULT;
        assertNotEquals(codec, other);
        HelloRefusedException refused = assertThrows(HelloRefusedException.class,
                () -> client("wrong-codec", other, agent.port()));
        assertTrue(refused.reason().contains("'" + other + "'") && refused.reason().contains("'" + codec + "'"),
                "the refusal should name both codecs: " + refused.reason());
        SalClient right = client("right-codec", codec, agent.port());
        assertFalse(Await.result("list sensors after a refusal", right.listSensors()).isEmpty(),
                "the agent lists no sensor");
    }
}
