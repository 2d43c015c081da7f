package org.salgate.plugin.opcua;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.CertificateValidator;

/**
 * Trusts one server certificate: the one in {@code server-certificate}, or the one whose SHA-256
 * is {@code server-certificate-sha256} (both when both are given). Any other certificate is
 * refused, with its SHA-256 in the message so that the operator can compare it with the server's.
 */
final class ServerTrust implements CertificateValidator {

    private final byte[] expected;

    private ServerTrust(byte[] expected) {
        this.expected = expected;
    }

    /** The trust the settings give; none for a protocol without security. */
    static ServerTrust of(OpcuaSettings settings) throws IOException, GeneralSecurityException {
        byte[] fromFile = null;
        if (settings.serverCertificate() != null) {
            try (InputStream in = Files.newInputStream(settings.serverCertificate())) {
                X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
                fromFile = sha256(c);
            } catch (GeneralSecurityException e) {
                throw new GeneralSecurityException("server-certificate " + settings.serverCertificate()
                        + " holds no X.509 certificate (PEM or DER): " + e.getMessage(), e);
            }
        }
        byte[] pin = settings.serverPin();
        if (fromFile != null && pin != null && !Arrays.equals(fromFile, pin)) {
            throw new GeneralSecurityException("server-certificate " + settings.serverCertificate() + " has SHA-256 "
                    + HexFormat.of().formatHex(fromFile) + ", not the server-certificate-sha256 given; give one of"
                    + " them, or the same certificate in both");
        }
        return new ServerTrust(fromFile != null ? fromFile : pin);
    }

    @Override
    public void validateCertificateChain(List<X509Certificate> chain, String applicationUri, String[] hostNames)
            throws UaException {
        if (chain.isEmpty()) {
            throw new UaException(StatusCodes.Bad_SecurityChecksFailed, "the server presented no certificate");
        }
        X509Certificate server = chain.get(0);
        byte[] got;
        try {
            got = sha256(server);
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.Bad_CertificateInvalid, e);
        }
        if (!MessageDigest.isEqual(got, expected)) {
            throw new UaException(StatusCodes.Bad_CertificateUntrusted, "the server's certificate ("
                    + server.getSubjectX500Principal() + ", SHA-256 " + HexFormat.of().formatHex(got)
                    + ") is not the one this protocol trusts (SHA-256 " + HexFormat.of().formatHex(expected)
                    + "); check server-certificate or server-certificate-sha256");
        }
        try {
            server.checkValidity();
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.Bad_CertificateTimeInvalid, "the server's certificate is out of its"
                    + " validity period: " + e.getMessage());
        }
    }

    static byte[] sha256(X509Certificate certificate) throws GeneralSecurityException {
        return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    }
}
