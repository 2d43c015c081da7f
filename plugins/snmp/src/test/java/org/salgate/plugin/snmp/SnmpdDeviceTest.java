package org.salgate.plugin.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The driver against Debian's snmpd, and traps sent by Debian's snmptrap (profile devices). */
@Tag("devices")
class SnmpdDeviceTest {

    private static final List<ChannelConfig> SYSTEM = List.of(
            Channels.read("uptime", "oid", "1.3.6.1.2.1.1.3.0"),
            Channels.read("name", "oid", "1.3.6.1.2.1.1.5.0"),
            Channels.read("lo-in-octets", "oid", "1.3.6.1.2.1.2.2.1.10", "index", "1"),
            Channels.read("lo-hc-in-octets", "oid", "1.3.6.1.2.1.31.1.1.1.6", "index", "1"),
            Channels.read("lo-speed", "oid", "1.3.6.1.2.1.2.2.1.5.1"),
            Channels.read("lo-admin-status", "oid", "1.3.6.1.2.1.2.2.1.7.1"),
            Channels.read("lo-descr", "oid", "1.3.6.1.2.1.2.2.1.2.1"));

    @TempDir
    Path dir;
    private Snmpd snmpd;
    private final List<SensorProtocol> opened = new ArrayList<>();
    private final BlockingQueue<String> pushed = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        snmpd = new Snmpd(dir, FakeSnmpAgent.freeUdpPort());
        snmpd.start();
    }

    @AfterEach
    void stop() throws Exception {
        opened.forEach(SensorProtocol::close);
        snmpd.close();
    }

    private Path secret(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text + "\n");
    }

    private SensorProtocol open(Map<String, String> parameters, List<ChannelConfig> channels) throws PluginException {
        String endpoint = "udp:127.0.0.1:" + snmpd.port();
        ProtocolConfig config = new ProtocolConfig("host", "snmp", endpoint, parameters, List.of(), List.of(),
                channels);
        SensorProtocol p = new SnmpPlugin().open(config, new PluginContext() {
            @Override
            public Endpoint endpoint() {
                return TestContext.on(endpoint).endpoint();
            }

            @Override
            public long nowMicros() {
                return System.currentTimeMillis() * 1000;
            }

            @Override
            public PushSink push() {
                return (channel, value) -> pushed.add(channel + "=" + value.value());
            }
        });
        opened.add(p);
        return p;
    }

    private Map<String, String> v2c() throws Exception {
        return Map.of("community-file", secret("community", Snmpd.COMMUNITY).toString());
    }

    private static Map<String, Value> values(List<ChannelConfig> channels, List<ChannelValue> read) {
        Map<String, Value> byName = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            assertTrue(read.get(i).ok(), channels.get(i).name() + ": " + read.get(i).error());
            byName.put(channels.get(i).name(), read.get(i).value());
        }
        return byName;
    }

    @Test
    void v2cReadsEveryTypeOfTheSystemAndItsInterfacesAndCountersAdvance() throws Exception {
        SensorProtocol p = open(v2c(), SYSTEM);
        p.connect();
        Map<String, Value> first = values(SYSTEM, p.read(Channels.reads(SYSTEM)));
        assertEquals(Value.of(Snmpd.SYS_NAME), first.get("name"));
        assertEquals(Value.of("lo"), first.get("lo-descr"));
        assertEquals(Value.of(1L), first.get("lo-admin-status"), "ifAdminStatus up(1)");
        assertEquals(Value.of(10_000_000L), first.get("lo-speed"), "the loopback's ifSpeed, a Gauge32");
        Thread.sleep(300);
        Map<String, Value> second = values(SYSTEM, p.read(Channels.reads(SYSTEM)));
        assertTrue(number(second, "uptime") > number(first, "uptime"), "sysUpTime (TimeTicks) " + first + second);
        // the loopback's counters (snmpd caches them for a few seconds): whole numbers, as the counters are
        assertTrue(number(second, "lo-in-octets") > 0, "ifInOctets (Counter32) " + second);
        assertTrue(number(second, "lo-hc-in-octets") >= number(second, "lo-in-octets") % (1L << 32),
                "ifHCInOctets (Counter64) " + second);
    }

    private static long number(Map<String, Value> values, String name) {
        return ((Value.Int) values.get(name)).value();
    }

    @Test
    void v3AuthPrivReadsAndEachWrongCredentialIsNamedInTheConnectsError() throws Exception {
        Map<String, String> v3 = new HashMap<>(Map.of("version", "3", "user", Snmpd.USER,
                "auth-password-file", secret("auth", Snmpd.AUTH).toString(),
                "priv-password-file", secret("priv", Snmpd.PRIV).toString(), "timeout-ms", "300"));
        SensorProtocol p = open(v3, SYSTEM.subList(0, 2));
        p.connect();
        assertEquals(Value.of(Snmpd.SYS_NAME), values(SYSTEM, p.read(Channels.reads(SYSTEM.subList(0, 2)))).get("name"));

        Map<String, String> wrongAuth = new HashMap<>(v3);
        wrongAuth.put("auth-password-file", secret("wrong-auth", "not-the-password").toString());
        assertEquals("SNMP device udp:127.0.0.1:" + snmpd.port() + " refused user 'salgate': wrong authentication"
                + " password (usmStatsWrongDigests); check auth-password-file, and that the user's authentication"
                + " protocol is SHA", refusal(wrongAuth));

        Map<String, String> wrongPriv = new HashMap<>(v3);
        wrongPriv.put("priv-password-file", secret("wrong-priv", "not-the-password").toString());
        assertTrue(refusal(wrongPriv).contains("refused user 'salgate': wrong privacy password: the device answered"
                + " the user's authenticated request (authNoPriv) and dropped the encrypted one"), refusal(wrongPriv));

        Map<String, String> unknown = new HashMap<>(v3);
        unknown.put("user", "nobody-here");
        assertTrue(refusal(unknown).contains("refused user 'nobody-here': unknown user (usmStatsUnknownUserNames)"),
                refusal(unknown));
    }

    /** The message of the connect that fails with these parameters. */
    private String refusal(Map<String, String> parameters) throws Exception {
        SensorProtocol p = open(parameters, SYSTEM.subList(0, 2));
        return assertThrows(SensorDisconnectedException.class, p::connect).getMessage();
    }

    @Test
    void aWalkOfSnmpdsIfTableGivesAChannelPerInterfaceNamedByIfDescrThatReadsItsCounters() throws Exception {
        Map<String, String> parameters = new HashMap<>(v2c());
        parameters.putAll(Map.of("walk", "ifTable", "walk-columns", "ifInOctets, ifOutOctets, ifSpeed",
                "walk-name", "ifDescr"));
        SensorProtocol p = open(parameters, List.of());
        p.connect();
        List<ChannelConfig> found = p.discover();
        Map<String, ChannelConfig> byName = new HashMap<>();
        found.forEach(c -> byName.put(c.name(), c));
        ChannelConfig in = byName.get("lo-ifInOctets");
        assertTrue(in != null, "no channel lo-ifInOctets in " + byName.keySet());
        assertEquals(Map.of("oid", "1.3.6.1.2.1.2.2.1.10", "index", "1"), in.attributes());
        assertTrue(in.description().contains("Counter32"), in.description());
        assertTrue(byName.get("lo-ifSpeed").description().contains("Gauge32"));
        assertEquals(0, found.size() % 3, "three columns per interface: " + byName.keySet());
        List<ChannelValue> read = p.read(Channels.reads(found));
        Map<String, Value> values = values(found, read);
        assertEquals(Value.of(10_000_000L), values.get("lo-ifSpeed"));
        assertTrue(((Value.Int) values.get("lo-ifInOctets")).value() > 0, values.toString());

        // through the v3 user, the same rows
        Map<String, String> v3 = new HashMap<>(Map.of("version", "3", "user", Snmpd.USER,
                "auth-password-file", secret("auth", Snmpd.AUTH).toString(),
                "priv-password-file", secret("priv", Snmpd.PRIV).toString(), "walk", "ifTable",
                "walk-columns", "ifInOctets, ifOutOctets, ifSpeed", "walk-name", "ifDescr"));
        SensorProtocol secure = open(v3, List.of());
        secure.connect();
        assertEquals(byName.keySet(), new java.util.HashSet<>(secure.discover().stream().map(ChannelConfig::name)
                .toList()));
    }

    @Test
    void trapsAndInformsFromSnmptrapArePushedWithTheirType() throws Exception {
        int trapPort = FakeSnmpAgent.freeUdpPort();
        Map<String, String> parameters = new HashMap<>(v2c());
        parameters.put("trap-port", Integer.toString(trapPort));
        List<ChannelConfig> channels = List.of(Channels.read("link-down", "trap-oid", "1.3.6.1.2.1.2.2.1.1"),
                Channels.read("reason", "trap-oid", "1.3.6.1.2.1.2.2.1.2"));
        open(parameters, channels);
        String to = "127.0.0.1:" + trapPort;
        assertEquals(0, Snmpd.run("snmptrap", "-v2c", "-c", Snmpd.COMMUNITY, to, "", "1.3.6.1.6.3.1.1.5.3",
                "1.3.6.1.2.1.2.2.1.1", "i", "2", "1.3.6.1.2.1.2.2.1.2", "s", "eth1 cable out"));
        assertEquals("link-down=" + Value.of(2L), pushed.poll(5, TimeUnit.SECONDS));
        assertEquals("reason=" + Value.of("eth1 cable out"), pushed.poll(5, TimeUnit.SECONDS));
        assertEquals(0, Snmpd.run("snmptrap", "-v2c", "-c", "wrong", to, "", "1.3.6.1.6.3.1.1.5.3",
                "1.3.6.1.2.1.2.2.1.1", "i", "5"));
        // an inform: snmptrap -Ci waits for the answer and fails without one
        assertEquals(0, Snmpd.run("snmptrap", "-Ci", "-r", "0", "-t", "3", "-v2c", "-c", Snmpd.COMMUNITY, to, "",
                "1.3.6.1.6.3.1.1.5.3", "1.3.6.1.2.1.2.2.1.1", "i", "3"), "the inform was not answered");
        assertEquals("link-down=" + Value.of(3L), pushed.poll(5, TimeUnit.SECONDS));
        assertTrue(pushed.isEmpty(), "a trap with a wrong community was pushed: " + pushed);
    }

    @Test
    void v3TrapsOfTheUserArePushedOnTheTrapAddressAndOnesWithAWrongPasswordAreDropped() throws Exception {
        int trapPort = FakeSnmpAgent.freeUdpPort();
        Map<String, String> v3 = new HashMap<>(Map.of("version", "3", "user", Snmpd.USER,
                "auth-password-file", secret("auth", Snmpd.AUTH).toString(),
                "priv-password-file", secret("priv", Snmpd.PRIV).toString(),
                "trap-port", Integer.toString(trapPort), "trap-address", "127.0.0.1"));
        open(v3, List.of(Channels.read("link-down", "trap-oid", "1.3.6.1.2.1.2.2.1.1")));
        String to = "127.0.0.1:" + trapPort;
        // a trap's sender is the authoritative engine: snmptrap names its own engine ID
        assertEquals(0, Snmpd.run("snmptrap", "-v3", "-e", "0x80001f8880c0ffee01", "-u", Snmpd.USER, "-l",
                "authPriv", "-a", "SHA", "-A", "not-the-password", "-x", "AES", "-X", Snmpd.PRIV, to, "",
                "1.3.6.1.6.3.1.1.5.3", "1.3.6.1.2.1.2.2.1.1", "i", "9"));
        assertEquals(0, Snmpd.run("snmptrap", "-v2c", "-c", Snmpd.COMMUNITY, to, "", "1.3.6.1.6.3.1.1.5.3",
                "1.3.6.1.2.1.2.2.1.1", "i", "8"));
        assertEquals(0, Snmpd.run("snmptrap", "-v3", "-e", "0x80001f8880c0ffee01", "-u", Snmpd.USER, "-l",
                "authPriv", "-a", "SHA", "-A", Snmpd.AUTH, "-x", "AES", "-X", Snmpd.PRIV, to, "",
                "1.3.6.1.6.3.1.1.5.3", "1.3.6.1.2.1.2.2.1.1", "i", "4"));
        assertEquals("link-down=" + Value.of(4L), pushed.poll(5, TimeUnit.SECONDS));
        Thread.sleep(200);
        assertTrue(pushed.isEmpty(), "a trap with a wrong password or of v2c was pushed: " + pushed);
    }

    @Test
    void snmpdStoppedMidStreamDisconnectsTheProtocolWhichReadsAgainOnceItIsBack() throws Exception {
        Map<String, String> parameters = new HashMap<>(v2c());
        parameters.put("timeout-ms", "200");
        parameters.put("retries", "1");
        SensorProtocol p = open(parameters, SYSTEM.subList(0, 2));
        p.connect();
        values(SYSTEM, p.read(Channels.reads(SYSTEM.subList(0, 2))));
        snmpd.stop();
        SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class,
                () -> p.read(Channels.reads(SYSTEM.subList(0, 2))));
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
        p.disconnect();
        assertThrows(SensorDisconnectedException.class, p::connect, "connect asks the device for sysUpTime");
        snmpd.start();
        p.connect();
        assertEquals(Value.of(Snmpd.SYS_NAME), values(SYSTEM, p.read(Channels.reads(SYSTEM.subList(0, 2)))).get("name"));
    }

    @Test
    void badConfigurationIsRefusedWhenTheProtocolOpensNamingWhatIsWrong() throws Exception {
        Map<Map<String, String>, String> bad = Map.of(
                Map.of("version", "1"), "parameter version '1' is not an SNMP version",
                Map.of("community-file", dir.resolve("missing").toString()), "cannot read file",
                Map.of("version", "3", "user", Snmpd.USER, "auth-password-file", dir.resolve("none").toString()),
                "auth-password-file");
        for (Map.Entry<Map<String, String>, String> c : bad.entrySet()) {
            PluginException x = assertThrows(PluginException.class, () -> open(c.getKey(), SYSTEM));
            assertTrue(x.getMessage().contains(c.getValue()), x.getMessage());
        }
        PluginException x = assertThrows(PluginException.class,
                () -> open(v2c(), List.of(Channels.read("up", "oid", "SNMPv2-MIB::sysUpTime.0"))));
        assertTrue(x.getMessage().contains("SNMP channel up") && x.getMessage().contains("numeric OID"),
                x.getMessage());
        assertFalse(x.getMessage().isBlank());
    }
}
