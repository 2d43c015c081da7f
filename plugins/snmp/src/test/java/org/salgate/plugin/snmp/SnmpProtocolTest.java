package org.salgate.plugin.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

class SnmpProtocolTest {

    private static final String IF_IN_OCTETS = "1.3.6.1.2.1.2.2.1.10";
    private static final String LINK_DOWN = "1.3.6.1.6.3.1.1.5.3";
    private static final String IF_INDEX = "1.3.6.1.2.1.2.2.1.1";

    @TempDir
    Path dir;
    private FakeSnmpAgent device;
    private Path community;
    private final List<SnmpProtocol> opened = new ArrayList<>();
    private final BlockingQueue<String> pushed = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        community = Files.writeString(dir.resolve("community"), "s3cret\n");
        device = new FakeSnmpAgent(FakeSnmpAgent.freeUdpPort(), "s3cret");
        device.values.put(SnmpProtocol.SYS_UP_TIME, new TimeTicks(4200));
        for (int row = 1; row <= 120; row++) {
            device.values.put(new OID(IF_IN_OCTETS + "." + row), new Counter32(1000L * row));
        }
        device.start();
    }

    @AfterEach
    void stop() throws Exception {
        opened.forEach(SnmpProtocol::close);
        device.close();
    }

    private SnmpProtocol open(Map<String, String> parameters, List<ChannelConfig> channels) throws PluginException {
        ProtocolConfig config = new ProtocolConfig("router", "snmp", "udp:127.0.0.1:" + device.port(), parameters,
                List.of(), List.of(), channels);
        SnmpProtocol p = new SnmpProtocol(config, SnmpSettings.of(config), "udp:127.0.0.1:" + device.port(),
                InetAddress.getLoopbackAddress(), device.port(), (channel, value) -> pushed.add(channel + "=" + value));
        opened.add(p);
        return p;
    }

    private static List<ChannelConfig> rows(int count) {
        List<ChannelConfig> channels = new ArrayList<>();
        for (int row = 1; row <= count; row++) {
            channels.add(Channels.read("in-" + row, "oid", IF_IN_OCTETS, "index", Integer.toString(row)));
        }
        return channels;
    }

    @Test
    void aBatchOfChannelsIsOneGetAndIsSplitAtMaxOidsPerRequest() throws Exception {
        SnmpProtocol p = open(Map.of("community-file", community.toString()), rows(120));
        p.connect();
        int before = device.gets();
        List<ChannelValue> values = p.read(Channels.reads(rows(100)));
        assertEquals(2, device.gets() - before, "100 OIDs at the default 50 per request");
        assertEquals(100, values.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(Value.of(1000L * (i + 1)), values.get(i).value(), "row " + (i + 1));
        }

        SnmpProtocol one = open(Map.of("community-file", community.toString(), "max-oids-per-request", "120"),
                rows(120));
        one.connect();
        before = device.gets();
        assertEquals(120, one.read(Channels.reads(rows(120))).size());
        assertEquals(1, device.gets() - before);
    }

    /** IF-MIB's interfaces on the fake device: ifDescr, ifInOctets, ifOutOctets, ifName, ifLastChange. */
    private void interfaces(String... descriptions) {
        device.values.keySet().removeIf(oid -> oid.startsWith(new OID(IF_IN_OCTETS)) && oid.last() > descriptions.length);
        for (int i = 0; i < descriptions.length; i++) {
            int row = i + 1;
            device.values.put(new OID("1.3.6.1.2.1.2.2.1.2." + row), new OctetString(descriptions[i]));
            device.values.put(new OID("1.3.6.1.2.1.2.2.1.9." + row), new TimeTicks(250L * row));
            device.values.put(new OID("1.3.6.1.2.1.2.2.1.16." + row), new Counter32(7L * row));
            device.values.put(new OID("1.3.6.1.2.1.31.1.1.1.1." + row), new OctetString("if" + row));
        }
    }

    private Map<String, String> walk(String... more) {
        Map<String, String> p = new java.util.HashMap<>(Map.of("community-file", community.toString()));
        for (int i = 0; i < more.length; i += 2) {
            p.put(more[i], more[i + 1]);
        }
        return p;
    }

    @Test
    void aWalkOfIfTableGivesAChannelPerInterfaceAndColumnNamedByIfDescrWithTheOidTypeAndUnit() throws Exception {
        interfaces("lo", "eth0 (uplink)", "lo");
        SnmpProtocol p = open(walk("walk", "ifTable", "walk-columns", "ifInOctets, out=ifOutOctets, ifLastChange",
                "walk-name", "ifDescr"), List.of());
        p.connect();
        int bulksBefore = device.bulks();
        List<ChannelConfig> found = p.discover();
        assertTrue(device.bulks() > bulksBefore, "the walk is made of GETBULK requests");
        Map<String, ChannelConfig> byName = new java.util.LinkedHashMap<>();
        found.forEach(c -> byName.put(c.name(), c));
        assertEquals(List.of("lo_1-ifInOctets", "lo_1-out", "lo_1-ifLastChange", "eth0_uplink_-ifInOctets",
                "eth0_uplink_-out", "eth0_uplink_-ifLastChange", "lo_3-ifInOctets", "lo_3-out", "lo_3-ifLastChange"),
                List.copyOf(byName.keySet()), "two rows named lo each get their index");
        ChannelConfig in = byName.get("eth0_uplink_-ifInOctets");
        assertEquals(Map.of("oid", IF_IN_OCTETS, "index", "2"), in.attributes());
        assertEquals("By", in.unit());
        assertTrue(in.description().contains("ifInOctets") && in.description().contains("Counter32")
                && in.description().contains("eth0 (uplink)"), in.description());
        ChannelConfig change = byName.get("lo_3-ifLastChange");
        assertEquals("s", change.unit(), "TimeTicks read in seconds");
        assertEquals(0.01, change.scale());
        assertTrue(change.description().contains("TimeTicks"), change.description());

        List<ChannelValue> values = p.read(Channels.reads(found));
        assertEquals(Value.of(2000L), values.get(3).value(), "ifInOctets.2");
        assertEquals(Value.of(21L), values.get(7).value(), "ifOutOctets.3");
        assertEquals(Value.of(750L), values.get(8).value(), "ifLastChange.3, raw: the agent applies the scale");
    }

    @Test
    void aWalkNamesRowsByTheirIndexWithoutWalkNameTakesColumnNumbersAndStopsAtWalkMaxRows() throws Exception {
        interfaces("lo", "eth0", "eth1", "eth2");
        SnmpProtocol p = open(walk("walk", "1.3.6.1.2.1.2.2.1", "walk-columns", "in=10, 16", "walk-max-rows", "3"),
                List.of());
        p.connect();
        List<String> names = p.discover().stream().map(ChannelConfig::name).toList();
        assertEquals(List.of("1-in", "1-16", "2-in", "2-16", "3-in", "3-16"), names,
                "3 rows of the 4 the device has");

        SnmpProtocol x = open(walk("walk", "ifTable", "walk-columns", "ifHCInOctets, ifInOctets", "walk-name",
                "ifName"), List.of());
        x.connect();
        List<ChannelConfig> found = x.discover();
        assertEquals(List.of("if1-ifInOctets", "if2-ifInOctets", "if3-ifInOctets", "if4-ifInOctets"),
                found.stream().map(ChannelConfig::name).toList(),
                "named from ifXTable; a column the device does not have (ifHCInOctets) gives no channel");
        assertEquals(List.of(), open(walk(), rows(1)).discover(), "no walk, nothing to discover");
    }

    @Test
    void aWalkOfASilentDeviceFailsDisconnectedAndBadWalkParametersAreRefusedNamingThem() throws Exception {
        SnmpProtocol p = open(walk("walk", "ifTable", "walk-columns", "ifInOctets", "timeout-ms", "100",
                "retries", "0"), List.of());
        p.connect();
        device.stop();
        SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class, p::discover);
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());

        Map<Map<String, String>, String> bad = Map.of(
                walk("walk", "ifTabel", "walk-columns", "ifInOctets"), "parameter walk 'ifTabel'",
                walk("walk", "ifTable"), "needs walk-columns",
                walk("walk", "ifTable", "walk-columns", "ifInOctet"), "walk-columns: 'ifInOctet' is not a column",
                walk("walk-columns", "ifInOctets"), "parameter walk-columns goes with parameter walk",
                walk("walk", "ifTable", "walk-columns", "in/octets=10"), "label 'in/octets'",
                walk("walk", "ifTable", "walk-columns", "10, 10"), "names '10' twice",
                walk("walk", "ifTable", "walk-columns", "10", "walk-name", "descr"), "parameter walk-name: 'descr'",
                walk("walk", "ifTable", "walk-columns", "10", "walk-max-rows", "0"), "parameter walk-max-rows '0'");
        for (Map.Entry<Map<String, String>, String> c : bad.entrySet()) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> open(c.getKey(), List.of()), c.getKey().toString());
            assertTrue(x.getMessage().startsWith("SNMP protocol router: ") && x.getMessage().contains(c.getValue()),
                    x.getMessage());
        }
    }

    @Test
    void theTrapListenerBeyondLoopbackIsForAuthenticatedTrapsUnlessTrapInsecureSaysSo() throws Exception {
        Path auth = Files.writeString(dir.resolve("auth"), "auth-pass-123\n");
        Map<Map<String, String>, String> bad = Map.of(
                walk("trap-port", "1162", "trap-address", "0.0.0.0"), "parameter trap-insecure",
                Map.of("version", "3", "user", "u", "trap-port", "1162", "trap-address", "0.0.0.0"),
                "a noAuthNoPriv trap is not authenticated",
                walk("trap-address", "127.0.0.1"), "trap-address goes with trap-port",
                walk("trap-port", "1162", "trap-address", "0.0.0.0", "trap-insecure", "yes"), "trap-insecure 'yes'");
        for (Map.Entry<Map<String, String>, String> c : bad.entrySet()) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> SnmpSettings.of(config(c.getKey())), c.getKey().toString());
            assertTrue(x.getMessage().contains(c.getValue()), x.getMessage());
        }
        assertEquals("0.0.0.0", SnmpSettings.of(config(Map.of("version", "3", "user", "u", "auth-password-file",
                auth.toString(), "trap-port", "1162", "trap-address", "0.0.0.0"))).trapAddress().getHostAddress());
        assertEquals("0.0.0.0", SnmpSettings.of(config(walk("trap-port", "1162", "trap-address", "0.0.0.0",
                "trap-insecure", "true"))).trapAddress().getHostAddress());
        assertTrue(SnmpSettings.of(config(walk("trap-port", "1162"))).trapAddress().isLoopbackAddress());
    }

    private ProtocolConfig config(Map<String, String> parameters) {
        return new ProtocolConfig("router", "snmp", "udp:127.0.0.1:" + device.port(), parameters, List.of(),
                List.of(), List.of());
    }

    @Test
    void anOidTheDeviceDoesNotHaveFailsThatChannelAloneNamingTheOid() throws Exception {
        List<ChannelConfig> channels = List.of(Channels.read("up", "oid", "1.3.6.1.2.1.1.3.0"),
                Channels.read("nothing", "oid", "1.3.6.1.4.1.99999.1.0"));
        SnmpProtocol p = open(Map.of("community-file", community.toString()), channels);
        p.connect();
        List<ChannelValue> values = p.read(Channels.reads(channels));
        assertEquals(Value.of(4200L), values.get(0).value());
        assertFalse(values.get(1).ok());
        assertTrue(values.get(1).error().contains("1.3.6.1.4.1.99999.1.0"), values.get(1).error());
        assertTrue(values.get(1).error().contains("noSuchObject"), values.get(1).error());
    }

    @Test
    void everySnmpTypeReadsAsTheModelsValue() {
        assertEquals(Value.of(-5L), SnmpValues.of("x", new Integer32(-5)).value());
        assertEquals(Value.of(4294967295L), SnmpValues.of("x", new Counter32(4294967295L)).value());
        assertEquals(Value.of(7L), SnmpValues.of("x", new Gauge32(7)).value());
        assertEquals(Value.of(360000L), SnmpValues.of("x", new TimeTicks(360000)).value());
        assertEquals(Value.of(1L << 40), SnmpValues.of("x", new Counter64(1L << 40)).value());
        assertEquals(Value.of("18446744073709551615"), SnmpValues.of("x", new Counter64(-1L)).value());
        assertEquals(Value.of("eth0"), SnmpValues.of("x", new OctetString("eth0")).value());
        assertTrue(SnmpValues.of("x", new OctetString(new byte[] {0, 0x1b, (byte) 0x21})).value() instanceof Value.Bytes);
    }

    @Test
    void aDeviceThatDoesNotAnswerIsDisconnectedAfterItsTriesSayingHowLongItWaited() throws Exception {
        SnmpProtocol p = open(Map.of("community-file", community.toString(), "timeout-ms", "100", "retries", "1"),
                rows(1));
        p.connect();
        device.stop();
        long began = System.nanoTime();
        SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class,
                () -> p.read(Channels.reads(rows(1))));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertTrue(tookMs >= 180 && tookMs < 2000, "two tries of 100 ms took " + tookMs + " ms");
        assertTrue(e.getMessage().contains("2 tries of timeout-ms 100"), e.getMessage());
        assertThrows(SensorDisconnectedException.class, p::connect, "connect asks the device");
        device.start();
        p.connect();
        assertEquals(Value.of(1000L), p.read(Channels.reads(rows(1))).get(0).value());
    }

    @Test
    void trapsAndInformsWithTheCommunityArePushedAndInformsAnswered() throws Exception {
        int trapPort = FakeSnmpAgent.freeUdpPort();
        SnmpProtocol p = open(Map.of("community-file", community.toString(), "trap-port", Integer.toString(trapPort)),
                List.of(Channels.read("link-down", "trap-oid", IF_INDEX)));
        assertTrue(p.pushes(Channels.read("link-down", "trap-oid", IF_INDEX)));
        try (Snmp sender = new Snmp(new DefaultUdpTransportMapping())) {
            sender.listen();
            sender.send(notification(PDU.TRAP, 3), target(trapPort, "wrong"));
            sender.send(notification(PDU.TRAP, 2), target(trapPort, "s3cret"));
            assertEquals("link-down=" + ChannelValue.of(Value.of(2L)), pushed.poll(5, TimeUnit.SECONDS));
            ResponseEvent<UdpAddress> answer = sender.send(notification(PDU.INFORM, 4), target(trapPort, "s3cret"));
            assertNotNull(answer.getResponse(), "the inform was not answered");
            assertEquals(PDU.RESPONSE, answer.getResponse().getType());
            assertEquals("link-down=" + ChannelValue.of(Value.of(4L)), pushed.poll(5, TimeUnit.SECONDS));
            assertTrue(pushed.isEmpty(), "the trap with a wrong community was pushed: " + pushed);
        }
    }

    private static PDU notification(int type, int ifIndex) {
        PDU pdu = new PDU();
        pdu.setType(type);
        pdu.add(new VariableBinding(SnmpConstants.sysUpTime, new TimeTicks(100)));
        pdu.add(new VariableBinding(SnmpConstants.snmpTrapOID, new OID(LINK_DOWN)));
        pdu.add(new VariableBinding(new OID(IF_INDEX), new Integer32(ifIndex)));
        return pdu;
    }

    private static CommunityTarget<UdpAddress> target(int port, String community) {
        CommunityTarget<UdpAddress> t = new CommunityTarget<>(new UdpAddress(InetAddress.getLoopbackAddress(), port),
                new OctetString(community));
        t.setVersion(SnmpConstants.version2c);
        t.setTimeout(2000);
        t.setRetries(0);
        return t;
    }

    @Test
    void badSettingsAreRefusedNamingTheParameter() throws Exception {
        Path shortPass = Files.writeString(dir.resolve("short"), "abc\n");
        Path pass = Files.writeString(dir.resolve("pass"), "longenough\n");
        Map<Map<String, String>, String> bad = Map.of(
                Map.of("version", "1"), "parameter version '1'",
                Map.of(), "community-file",
                Map.of("community-file", dir.resolve("none").toString()), "cannot read file",
                Map.of("version", "3"), "parameter user",
                Map.of("version", "3", "user", "u", "auth-password-file", shortPass.toString()), "at least 8",
                Map.of("version", "3", "user", "u", "priv-password-file", pass.toString()), "needs auth-password-file",
                Map.of("community-file", community.toString(), "timeout-ms", "0"), "timeout-ms");
        for (Map.Entry<Map<String, String>, String> e : bad.entrySet()) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> open(e.getKey(), rows(1)), e.getKey().toString());
            assertTrue(x.getMessage().contains(e.getValue()), x.getMessage());
        }
        for (ChannelConfig c : List.of(Channels.read("x", "oid", "ifInOctets.1"), Channels.read("x"),
                Channels.read("x", "oid", "1.3", "trap-oid", "1.3"), Channels.read("x", "oid", "1.3", "colour", "red"))) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> open(Map.of("community-file", community.toString()), List.of(c)), c.toString());
            assertTrue(x.getMessage().startsWith("SNMP channel x: "), x.getMessage());
        }
    }
}
