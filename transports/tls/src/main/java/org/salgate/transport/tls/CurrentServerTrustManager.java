package org.salgate.transport.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JVM's PKIX trust manager, which also refuses a server certificate outside its validity
 * dates when that certificate is itself one of the trusted ones. PKIX checks the dates of every
 * certificate on the path but not of the trust anchor it ends at, so an agent's self-signed
 * certificate given to the client as its CA ({@code --tls-ca agent-cert.pem}) would otherwise be
 * accepted after it expired. Only the server's own certificate is checked here: a chain may carry
 * an expired certificate that the path does not use.
 */
final class CurrentServerTrustManager extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager pkix;

    CurrentServerTrustManager(X509ExtendedTrustManager pkix) {
        this.pkix = pkix;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        pkix.checkServerTrusted(chain, authType);
        chain[0].checkValidity();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, socket);
        chain[0].checkValidity();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, engine);
        chain[0].checkValidity();
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        pkix.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        pkix.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        pkix.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return pkix.getAcceptedIssuers();
    }
}
