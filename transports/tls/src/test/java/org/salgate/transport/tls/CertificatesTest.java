package org.salgate.transport.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificatesTest {

    @TempDir
    Path dir;

    @Test
    void selfSignedCertificateNamesItsHostsAndItsFingerprintParsesBack() throws Exception {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1", "localhost"), 1);
        X509Certificate certificate = identity.certificate();
        certificate.checkValidity();
        assertEquals(List.of("127.0.0.1", "localhost"), Certificates.hostNames(certificate).stream().sorted().toList());
        String fingerprint = Certificates.fingerprint(certificate);
        assertTrue(fingerprint.matches("([0-9A-F]{2}:){31}[0-9A-F]{2}"), fingerprint);
        byte[] bytes = Certificates.parseFingerprint(fingerprint);
        assertArrayEquals(bytes, Certificates.parseFingerprint("sha256:" + fingerprint.replace(":", "").toLowerCase()));
    }

    @Test
    void malformedFingerprintIsRefusedSayingWhatOneLooksLike() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Certificates.parseFingerprint("AB:CD"));
        assertTrue(e.getMessage().contains("64 hex digits"), e.getMessage());
    }

    @Test
    void pemFilesWrittenHereServeTls() throws Exception {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
        Path cert = Files.writeString(dir.resolve("cert.pem"), Certificates.toPem(identity.certificate()));
        Path key = Files.writeString(dir.resolve("key.pem"), Certificates.toPem(identity.key()));
        TlsConfig server = TlsConfig.serverFromPem(cert, key);
        assertTrue(server.isServer());
        assertTrue(server.toString().contains(Certificates.fingerprint(identity.certificate())), server.toString());
        assertEquals(List.of(identity.certificate()), Certificates.readCertificates(cert));
    }

    @Test
    void fileWithoutAKeyIsRefusedNamingIt() throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"),
                Certificates.toPem(Certificates.selfSigned(List.of(), 1).certificate()));
        IOException e = assertThrows(IOException.class, () -> Certificates.readPrivateKey(cert));
        assertTrue(e.getMessage().contains(cert.toString()) && e.getMessage().contains("private key"), e.getMessage());
        Path empty = Files.writeString(dir.resolve("empty.pem"), "nothing here\n");
        IOException noCert = assertThrows(IOException.class, () -> Certificates.readCertificates(empty));
        assertTrue(noCert.getMessage().contains("no PEM certificate"), noCert.getMessage());
    }

    @Test
    void pinnedTrustManagerAcceptsOnlyThePinnedCertificate() throws Exception {
        X509Certificate pinned = Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate();
        X509Certificate other = Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate();
        PinnedTrustManager trust = new PinnedTrustManager(
                HexFormat.ofDelimiter(":").parseHex(Certificates.fingerprint(pinned)));
        trust.checkServerTrusted(new X509Certificate[] {pinned}, "ECDHE_ECDSA");
        CertificateException e = assertThrows(CertificateException.class,
                () -> trust.checkServerTrusted(new X509Certificate[] {other}, "ECDHE_ECDSA"));
        assertTrue(e.getMessage().contains("not the pinned"), e.getMessage());
        assertThrows(CertificateException.class,
                () -> trust.checkClientTrusted(new X509Certificate[] {pinned}, "ECDHE_ECDSA"));
        assertEquals(0, trust.getAcceptedIssuers().length);
    }

    @Test
    void caTrustManagerRefusesUntrustedCertificatesAndTrustedOnesOutOfDate() throws Exception {
        Instant now = Instant.now();
        X509Certificate expired = Certificates.selfSigned(List.of("127.0.0.1"), now.minus(Duration.ofDays(10)),
                now.minus(Duration.ofDays(1))).certificate();
        X509Certificate current = Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate();
        X509Certificate stranger = Certificates.selfSigned(List.of("127.0.0.1"), 1).certificate();
        X509TrustManager trust =
                TlsConfig.clientTrusting(List.of(expired, current), "the two test certificates").trustManager();
        trust.checkServerTrusted(new X509Certificate[] {current}, "ECDHE_ECDSA");
        assertThrows(CertificateException.class,
                () -> trust.checkServerTrusted(new X509Certificate[] {stranger}, "ECDHE_ECDSA"));
        assertThrows(CertificateExpiredException.class,
                () -> trust.checkServerTrusted(new X509Certificate[] {expired}, "ECDHE_ECDSA"));
    }

    @Test
    void serverAndClientConfigsCannotBeSwapped() {
        TlsConfig server = TlsConfig.server(Certificates.selfSigned(List.of("127.0.0.1"), 1));
        TlsConfig client = TlsConfig.clientTrustingSystem();
        assertThrows(IllegalStateException.class, () -> server.clientEngine("127.0.0.1", 1));
        assertThrows(IllegalStateException.class, client::serverEngine);
    }

    @Test
    void enginesEnableTls13And12OnlyAndCheckTheHostWhenTrustingCas() {
        TlsConfig server = TlsConfig.server(Certificates.selfSigned(List.of("127.0.0.1"), 1));
        assertEquals(TlsConfig.PROTOCOLS, List.of(server.serverEngine().getEnabledProtocols()));
        var caClient = TlsConfig.clientTrustingSystem().clientEngine("127.0.0.1", 7431);
        assertEquals("HTTPS", caClient.getSSLParameters().getEndpointIdentificationAlgorithm());
        var pinnedClient = TlsConfig.clientPinned(Certificates.fingerprint(
                Certificates.selfSigned(List.of(), 1).certificate())).clientEngine("127.0.0.1", 7431);
        assertEquals(TlsConfig.PROTOCOLS, List.of(pinnedClient.getEnabledProtocols()));
    }
}
