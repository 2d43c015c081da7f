package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The driver against a real third-party OPC UA server, node-opcua-server. */
@Tag("devices")
class OpcuaServerDeviceTest {

    @TempDir
    Path dir;
    private NodeOpcuaServer server;
    private SensorProtocol protocol;
    private final Map<String, List<ChannelValue>> pushed = new ConcurrentHashMap<>();

    private static final ChannelConfig TEMPERATURE = ChannelConfig.read("temperature", "Cel",
            Map.of("node", "ns=1;s=Temperature"));
    private static final ChannelConfig COUNTER = ChannelConfig.read("counter", "",
            Map.of("node", "ns=1;s=Counter", "sampling-ms", "100", "queue-size", "5"));
    private static final ChannelConfig SET_POINT = new ChannelConfig("setpoint", "", "Cel", 1, 0,
            ChannelConfig.Access.READ_WRITE, null, null, Map.of("node", "ns=1;s=SetPoint"));
    private static final ChannelConfig MISSING = ChannelConfig.read("missing", "", Map.of("node", "ns=1;s=Nothing"));

    @BeforeEach
    void startTheServer() throws Exception {
        server = new NodeOpcuaServer(dir.resolve("server-pki"));
        // the agent's certificate, made first, trusted by the server's administrator
        ApplicationCertificate.in(dir.resolve("agent"));
        server.trust(dir.resolve("agent").resolve(ApplicationCertificate.CERTIFICATE));
        server.start();
    }

    @AfterEach
    void stopAll() throws Exception {
        if (protocol != null) {
            protocol.close();
        }
        server.close();
    }

    private SensorProtocol open(Map<String, String> parameters) throws Exception {
        ProtocolConfig config = new ProtocolConfig("plc", "opcua", server.url(), parameters, List.of(), List.of(),
                List.of(TEMPERATURE, COUNTER, SET_POINT, MISSING));
        PushSink sink = (channel, value) -> pushed.computeIfAbsent(channel, c -> new CopyOnWriteArrayList<>())
                .add(value);
        protocol = TestProtocols.open(config, sink);
        return protocol;
    }

    private String pin() throws Exception {
        try (InputStream in = Files.newInputStream(server.certificate())) {
            X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            return HexFormat.of().formatHex(ServerTrust.sha256(c));
        }
    }

    private Map<String, String> secured(String pin) {
        return Map.of("security-policy", "Basic256Sha256", "security-mode", "SignAndEncrypt",
                "server-certificate-sha256", pin, "certificate-dir", dir.resolve("agent").toString(),
                "timeout-ms", "3000");
    }

    @Test
    void channelsAreReadInOneCallWrittenInTheNodesTypeAndAnUnknownNodeIsReportedByItsStatusName() throws Exception {
        SensorProtocol p = open(Map.of());
        p.connect();
        List<ChannelValue> values = p.read(List.of(new ChannelRead(TEMPERATURE), new ChannelRead(SET_POINT),
                new ChannelRead(MISSING)));
        assertTrue(values.get(0).ok(), values.get(0).toString());
        double t = ((Value.Num) values.get(0).value()).value();
        assertTrue(t >= 20 && t < 25, "temperature " + t);
        assertTrue(values.get(0).deviceTimeMicros() > 0, "no source time");
        assertEquals(Value.of(5L), values.get(1).value());
        assertFalse(values.get(2).ok());
        assertTrue(values.get(2).error().contains("Bad_NodeIdUnknown"), values.get(2).error());

        p.write(SET_POINT, Value.of(42.0));
        assertEquals(Value.of(42L), p.read(List.of(new ChannelRead(SET_POINT))).get(0).value());
    }

    @Test
    void aMonitoredChannelIsPushedFromItsSubscriptionNotRead() throws Exception {
        SensorProtocol p = open(Map.of());
        p.connect();
        assertTrue(p.pushes(COUNTER));
        assertFalse(p.pushes(TEMPERATURE));
        await("five counter notifications", () -> pushed.getOrDefault("counter", List.of()).size() >= 5);
        List<ChannelValue> got = pushed.get("counter");
        long first = ((Value.Int) got.get(0).value()).value();
        long last = ((Value.Int) got.get(got.size() - 1).value()).value();
        assertTrue(last > first, "the counter did not change: " + got);
    }

    @Test
    void basic256Sha256SignAndEncryptWorksWithThePinnedCertificateAndFailsClearlyWithAnotherPin() throws Exception {
        SensorProtocol p = open(secured(pin()));
        p.connect();
        assertTrue(p.read(List.of(new ChannelRead(TEMPERATURE))).get(0).ok());
        p.close();
        protocol = null;

        SensorProtocol wrong = open(secured("00".repeat(32)));
        Exception e = assertThrows(Exception.class, wrong::connect);
        String why = e.getMessage() + (e.getCause() != null ? " " + e.getCause().getMessage() : "");
        assertTrue(why.contains("Bad_CertificateUntrusted") || why.contains("not the one this protocol trusts"), why);
    }

    @Test
    void theServerStoppedMidStreamDisconnectsTheProtocolAndAReconnectAfterItsRestartRecreatesTheSubscription()
            throws Exception {
        SensorProtocol p = open(Map.of("timeout-ms", "3000"));
        p.connect();
        await("the counter pushed", () -> pushed.getOrDefault("counter", List.of()).size() >= 2);
        server.stop();
        await("the monitored channel no longer pushed", () -> !p.pushes(COUNTER));
        assertThrows(SensorDisconnectedException.class, () -> p.read(List.of(new ChannelRead(COUNTER))));
        p.disconnect();
        assertThrows(Exception.class, p::connect, "connected to a stopped server");

        server.start();
        pushed.clear();
        p.connect();
        assertTrue(p.pushes(COUNTER));
        await("the counter pushed again", () -> pushed.getOrDefault("counter", List.of()).size() >= 2);
        assertInstanceOf(Value.Num.class, p.read(List.of(new ChannelRead(TEMPERATURE))).get(0).value());
    }

    @Test
    void browsingTheServersDeviceObjectFindsItsVariablesWithTheirUnitsRangesAndAccess() throws Exception {
        SensorProtocol p = open(Map.of("browse", "ns=1;s=Device"));
        p.connect();
        Map<String, ChannelConfig> found = new java.util.TreeMap<>();
        p.discover().forEach(c -> found.put(c.name(), c));
        assertEquals(java.util.Set.of("Temperature", "Pressure", "Counter", "SetPoint"), found.keySet(),
                found.toString());
        assertEquals("Cel", found.get("Temperature").unit());
        assertTrue(found.get("Temperature").description().contains("Double, range -40 to 150"),
                found.get("Temperature").description());
        assertEquals("bar", found.get("Pressure").unit());
        assertEquals("ns=1;s=Pressure", found.get("Pressure").attributes().get("node"));
        assertEquals("", found.get("Counter").unit());
        assertEquals(ChannelConfig.Access.READ_WRITE, found.get("SetPoint").access());
        assertEquals(ChannelConfig.Access.READ, found.get("Counter").access());
        ChannelValue pressure = p.read(List.of(new ChannelRead(found.get("Pressure")))).get(0);
        assertTrue(pressure.ok() && pressure.value() instanceof Value.Num, pressure.toString());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(50);
        }
    }
}
