package org.salgate.transport.tls;

import java.net.Socket;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly one server certificate: the one whose SHA-256 fingerprint is pinned. Any other
 * certificate, or the pinned one outside its validity, is refused. It never trusts clients.
 */
final class PinnedTrustManager extends X509ExtendedTrustManager {

    private static final X509Certificate[] NO_ISSUERS = new X509Certificate[0];

    private final byte[] pinned;

    PinnedTrustManager(byte[] sha256) {
        if (sha256.length != 32) {
            throw new IllegalArgumentException("a SHA-256 fingerprint has 32 bytes, got " + sha256.length);
        }
        this.pinned = sha256.clone();
    }

    String fingerprint() {
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(pinned);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the server sent no certificate");
        }
        X509Certificate certificate = chain[0];
        String actual = Certificates.fingerprint(certificate);
        byte[] actualBytes = HexFormat.ofDelimiter(":").parseHex(actual);
        if (!MessageDigest.isEqual(pinned, actualBytes)) {
            throw new CertificateException("the server's certificate has SHA-256 fingerprint " + actual
                    + ", not the pinned " + fingerprint());
        }
        certificate.checkValidity();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a pinned trust manager does not authenticate clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return NO_ISSUERS;
    }
}
