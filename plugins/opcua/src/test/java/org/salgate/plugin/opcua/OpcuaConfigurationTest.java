package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.model.Value;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** What the driver makes of an endpoint, its parameters and its channels, without a server. */
class OpcuaConfigurationTest {

    @TempDir
    Path dir;

    private static ProtocolConfig protocol(Map<String, String> parameters, ChannelConfig... channels) {
        return new ProtocolConfig("plc", "opcua", "opc.tcp://127.0.0.1:4840/", parameters, List.of(), List.of(),
                List.of(channels));
    }

    private static ChannelConfig channel(String name, String... attributes) {
        Map<String, String> a = new java.util.HashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            a.put(attributes[i], attributes[i + 1]);
        }
        return ChannelConfig.read(name, "Cel", a);
    }

    @Test
    void anEndpointUrlGivesTheHostAndPortTheAgentChecksWithTheDefaultPort4840() {
        assertEquals(new DeviceAddress.Network("10.0.0.5", 4841), OpcuaPlugin.OPC_TCP.parse("//10.0.0.5:4841/plc"));
        assertEquals(new DeviceAddress.Network("plc.local", 4840), OpcuaPlugin.OPC_TCP.parse("//plc.local/"));
        assertEquals(new DeviceAddress.Network("::1", 4840), OpcuaPlugin.OPC_TCP.parse("//[::1]:4840"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpcuaPlugin.OPC_TCP.parse("10.0.0.5:4840"));
        assertTrue(e.getMessage().contains("opc.tcp://HOST:PORT/PATH"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OpcuaPlugin.OPC_TCP.parse("//10.0.0.5:99999/"));
        assertTrue(e.getMessage().contains("port"), e.getMessage());
    }

    @Test
    void aChannelNamesItsNodeAndIsMonitoredWhenItHasASamplingInterval() {
        OpcuaSettings plain = OpcuaSettings.of(protocol(Map.of()));
        OpcuaChannel read = OpcuaChannel.of(channel("t", "node", "ns=2;s=Temperature"), plain);
        assertFalse(read.monitored());
        assertEquals("ns=2;s=Temperature", read.node().toParseableString());
        OpcuaChannel watched = OpcuaChannel.of(channel("t", "node", "ns=2;i=7", "sampling-ms", "100",
                "queue-size", "5", "deadband", "0.5"), plain);
        assertTrue(watched.monitored());
        assertEquals(100, watched.samplingMs());
        assertEquals(5, watched.queueSize());
        assertEquals(0.5, watched.deadband());
        OpcuaSettings everyChannel = OpcuaSettings.of(protocol(Map.of("sampling-ms", "250")));
        assertEquals(250, OpcuaChannel.of(channel("t", "node", "ns=2;i=7"), everyChannel).samplingMs());
    }

    @Test
    void aBadChannelIsRefusedNamingTheChannelAndWhatIsWrong() {
        OpcuaSettings s = OpcuaSettings.of(protocol(Map.of()));
        assertRefused(() -> OpcuaChannel.of(channel("t"), s), "OPC UA channel t", "attribute node is missing");
        assertRefused(() -> OpcuaChannel.of(channel("t", "node", "ns=x;q=1"), s), "OPC UA channel t", "not a node id");
        assertRefused(() -> OpcuaChannel.of(channel("t", "node", "ns=2;i=1", "register", "3"), s),
                "unknown attribute(s) register");
        assertRefused(() -> OpcuaChannel.of(channel("t", "node", "ns=2;i=1", "deadband", "1"), s),
                "give it sampling-ms too");
        assertRefused(() -> OpcuaChannel.of(channel("t", "node", "ns=2;i=1", "sampling-ms", "-5"), s), "sampling-ms");
        assertRefused(() -> OpcuaChannel.of(channel("t", "node", "ns=2;i=1", "sampling-ms", "10",
                "queue-size", "1.5"), s), "queue-size");
    }

    @Test
    void securityNeedsTheServerCertificateByFileOrPinAndADirectoryForTheAgentsOwnNeverTrustingAny() throws Exception {
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "certificate-dir", dir.toString()))), "server-certificate or server-certificate-sha256 is missing");
        String pin = "ab".repeat(32);
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "server-certificate-sha256", pin))), "certificate-dir is missing");
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "server-certificate-sha256", "abc", "certificate-dir", dir.toString()))), "64 hex digits");
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("security-policy", "Basic128Rsa15"))),
                "None or Basic256Sha256");
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("security-mode", "Sign"))), "does not go with");
        OpcuaSettings s = OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "server-certificate-sha256", pin.replaceAll("(..)(?!$)", "$1:"), "certificate-dir", dir.toString())));
        assertEquals(OpcuaSettings.Mode.SIGN_AND_ENCRYPT, s.mode());
        assertEquals(pin, HexFormat.of().formatHex(s.serverPin()));
    }

    @Test
    void aPasswordIsSentOnlyOverAnEncryptedConnectionAndComesFromAFile() throws Exception {
        Path password = Files.writeString(dir.resolve("password"), "secret\n");
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("user", "op", "password-file", password.toString()))),
                "needs security-mode SignAndEncrypt");
        assertRefused(() -> OpcuaSettings.of(protocol(Map.of("user", "op"))), "password-file is missing");
    }

    @Test
    void theAgentsCertificateIsMadeOnceAndKeptReadableByItsUserOnly() throws Exception {
        ApplicationCertificate first = ApplicationCertificate.in(dir);
        ApplicationCertificate again = ApplicationCertificate.in(dir);
        assertEquals(first.certificate(), again.certificate());
        assertTrue(first.applicationUri().startsWith("urn:salgate:agent:"), first.applicationUri());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(ApplicationCertificate.STORE))));
        assertTrue(Files.size(dir.resolve(ApplicationCertificate.CERTIFICATE)) > 0);
    }

    @Test
    void aServerCertificateOtherThanThePinnedOneIsRefusedWithItsFingerprint() throws Exception {
        ApplicationCertificate server = ApplicationCertificate.in(dir.resolve("server"));
        ApplicationCertificate other = ApplicationCertificate.in(dir.resolve("other"));
        String pin = HexFormat.of().formatHex(ServerTrust.sha256(server.certificate()));
        ServerTrust trust = ServerTrust.of(OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "server-certificate-sha256", pin, "certificate-dir", dir.toString()))));
        trust.validateCertificateChain(List.of(server.certificate()), "urn:x", new String[0]);
        UaException e = assertThrows(UaException.class,
                () -> trust.validateCertificateChain(List.of(other.certificate()), "urn:x", new String[0]));
        assertEquals("Bad_CertificateUntrusted", OpcuaProtocol.statusName(e.getStatusCode()));
        assertTrue(e.getMessage().contains(HexFormat.of().formatHex(ServerTrust.sha256(other.certificate()))),
                e.getMessage());
        ServerTrust byFile = ServerTrust.of(OpcuaSettings.of(protocol(Map.of("security-policy", "Basic256Sha256",
                "server-certificate", dir.resolve("server").resolve(ApplicationCertificate.CERTIFICATE).toString(),
                "certificate-dir", dir.toString()))));
        byFile.validateCertificateChain(List.of(server.certificate()), "urn:x", new String[0]);
        assertThrows(UaException.class,
                () -> byFile.validateCertificateChain(List.of(other.certificate()), "urn:x", new String[0]));
    }

    @Test
    void valuesComeInTheAgentsTypesAndAWriteTakesTheNodesOwnType() {
        assertEquals(Value.of(21.5), OpcuaValues.of(Variant.ofDouble(21.5)));
        assertEquals(Value.of(7L), OpcuaValues.of(Variant.ofUInt16(UShort.valueOf(7))));
        assertEquals(Value.of(1L), OpcuaValues.of(Variant.ofBoolean(true)));
        assertEquals(Value.of("on"), OpcuaValues.of(Variant.ofString("on")));
        OpcuaChannel c = new OpcuaChannel("sp", org.eclipse.milo.opcua.stack.core.types.builtin.NodeId.parse(
                "ns=2;s=SetPoint"), -1, 1, 0);
        assertInstanceOf(Short.class, OpcuaValues.like(Variant.ofInt16((short) 1), Value.of(42.0), c).getValue());
        assertInstanceOf(Float.class, OpcuaValues.like(Variant.ofFloat(1f), Value.of(2.5), c).getValue());
        assertRefused(() -> OpcuaValues.like(Variant.ofInt16((short) 1), Value.of(40000.0), c), "Int16",
                "-32768 to 32767");
        assertRefused(() -> OpcuaValues.like(Variant.ofInt32(1), Value.of(2.5), c), "a whole number");
    }

    @Test
    void statusCodesAreReportedByName() {
        assertEquals("Bad_NodeIdUnknown", OpcuaProtocol.statusName(new StatusCode(
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdUnknown)));
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable bad, String... words) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad);
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), "'" + e.getMessage() + "' does not say '" + w + "'");
        }
    }
}
