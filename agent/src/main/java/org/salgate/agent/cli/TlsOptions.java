package org.salgate.agent.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import picocli.CommandLine.Option;

/** The agent's TLS options: a certificate and key from PEM files, or a self-signed certificate made at start. */
public final class TlsOptions {

    /** Days a certificate made by --tls-self-signed is valid. */
    static final int SELF_SIGNED_DAYS = 365;

    @Option(names = "--tls-cert", paramLabel = "PEM_FILE",
            description = "Serve TLS with this certificate chain (PEM, the agent's certificate first); needs --tls-key.")
    Path certificate;

    @Option(names = "--tls-key", paramLabel = "PEM_FILE",
            description = "The private key of --tls-cert (PEM, unencrypted PKCS#8, RSA or EC).")
    Path key;

    @Option(names = "--tls-self-signed",
            description = "Serve TLS with a self-signed certificate made at start (for trying things out);"
                    + " prints its SHA-256 fingerprint for clients' --tls-pin.")
    boolean selfSigned;

    /** Whether any TLS option was given: the agent then serves TLS only. */
    public boolean isConfigured() {
        return selfSigned || certificate != null || key != null;
    }

    /**
     * The server TLS config the options ask for, or null for none. A self-signed certificate names
     * {@code host} (unless it is a wildcard address), localhost and 127.0.0.1; its fingerprint is
     * printed on {@code out}.
     *
     * @throws IllegalArgumentException for a wrong combination of options, saying which
     * @throws IOException when a PEM file cannot be read, naming it
     */
    public TlsConfig config(String host, PrintWriter out) throws IOException {
        if (!isConfigured()) {
            return null;
        }
        if (selfSigned && (certificate != null || key != null)) {
            throw new IllegalArgumentException("give either --tls-self-signed or --tls-cert with --tls-key, not both");
        }
        if (selfSigned) {
            List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1"));
            if (!host.equals("0.0.0.0") && !host.equals("::") && !names.contains(host)) {
                names.add(host);
            }
            Certificates.KeyAndChain identity = Certificates.selfSigned(names, SELF_SIGNED_DAYS);
            out.println("serving TLS with a self-signed certificate for " + String.join(", ", names) + ", valid "
                    + SELF_SIGNED_DAYS + " days; clients connect with --tls-pin "
                    + Certificates.fingerprint(identity.certificate()));
            out.flush();
            return TlsConfig.server(identity);
        }
        if (certificate == null || key == null) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together: give both PEM files");
        }
        TlsConfig config = TlsConfig.serverFromPem(certificate, key);
        out.println("serving " + config);
        String dates = outOfDate(Certificates.readCertificates(certificate).get(0), Instant.now());
        if (dates != null) {
            out.println("warning: " + dates);
        }
        out.flush();
        return config;
    }

    /**
     * Why a client will refuse the agent's certificate at {@code now} for its dates, or null when
     * they hold. Not a reason to stop: a gateway's clock may be wrong until it has synchronized.
     */
    static String outOfDate(X509Certificate certificate, Instant now) {
        Instant notAfter = certificate.getNotAfter().toInstant();
        Instant notBefore = certificate.getNotBefore().toInstant();
        if (now.isAfter(notAfter)) {
            return "the certificate of --tls-cert expired at " + notAfter + ", and clients refuse it;"
                    + " give the agent a new one";
        }
        if (now.isBefore(notBefore)) {
            return "the certificate of --tls-cert is valid only from " + notBefore + ", and clients refuse it"
                    + " until then; check this machine's clock (" + now + ")";
        }
        return null;
    }
}
