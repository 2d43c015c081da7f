package org.salgate.transport.tck;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * A test CA made at run time, and the certificates it issues: a good one for 127.0.0.1 and
 * localhost, an expired one, and one for another host; and an expired self-signed one. Nothing
 * of it is stored on disk unless a test writes it there.
 */
public final class TestPki {

    /** The names of the good server certificate. */
    public static final List<String> LOCAL_NAMES = List.of("127.0.0.1", "localhost");

    private static final TestPki SHARED = new TestPki("CN=salgate test CA");

    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final Certificates.KeyAndChain server;

    public TestPki(String caName) {
        caKeys = Certificates.newKeyPair();
        Instant now = Instant.now();
        ca = Certificates.issue(caName, caKeys, null, caKeys.getPrivate(), now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofDays(30)), true, List.of());
        server = issue("CN=salgate test agent", LOCAL_NAMES, now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofDays(30)));
    }

    /** One CA shared by the tests of a JVM (making keys takes a moment). */
    public static TestPki shared() {
        return SHARED;
    }

    /** The CA's certificate. */
    public X509Certificate ca() {
        return ca;
    }

    /** A certificate signed by this CA for {@code names}, valid between the two instants. */
    public Certificates.KeyAndChain issue(String subject, List<String> names, Instant notBefore, Instant notAfter) {
        KeyPair keys = Certificates.newKeyPair();
        X509Certificate certificate = Certificates.issue(subject, keys, ca, caKeys.getPrivate(), notBefore, notAfter,
                false, names);
        return new Certificates.KeyAndChain(keys.getPrivate(), List.of(certificate, ca));
    }

    /** The good server certificate: 127.0.0.1 and localhost, valid now. */
    public Certificates.KeyAndChain server() {
        return server;
    }

    /** A certificate for 127.0.0.1 and localhost that expired yesterday. */
    public Certificates.KeyAndChain expired() {
        Instant now = Instant.now();
        return issue("CN=salgate expired agent", LOCAL_NAMES, now.minus(Duration.ofDays(10)),
                now.minus(Duration.ofDays(1)));
    }

    /**
     * A self-signed certificate for 127.0.0.1 and localhost that expired yesterday, for a client
     * that trusts the certificate itself as its CA (as {@code --tls-ca agent-cert.pem} does).
     */
    public static Certificates.KeyAndChain expiredSelfSigned() {
        Instant now = Instant.now();
        return Certificates.selfSigned(LOCAL_NAMES, now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)));
    }

    /** A valid certificate for another host only. */
    public Certificates.KeyAndChain wrongHost() {
        Instant now = Instant.now();
        return issue("CN=other.example", List.of("other.example"), now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofDays(30)));
    }

    /** The server side with the good certificate. */
    public TlsConfig serverTls() {
        return TlsConfig.server(server);
    }

    /** A client that trusts this CA only. */
    public TlsConfig clientTls() {
        return TlsConfig.clientTrusting(List.of(ca), "TLS trusting the test CA");
    }
}
