package org.salgate.agent.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
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
            description = "Serve TLS with a self-signed certificate made at the first start and kept in --state-dir"
                    + " (for trying things out); prints its SHA-256 fingerprint for clients' --tls-pin.")
    boolean selfSigned;

    /** Where {@code --tls-self-signed} keeps its certificate and key, under the state directory. */
    static final String SELF_SIGNED_CERT = "tls/self-signed-cert.pem";
    static final String SELF_SIGNED_KEY = "tls/self-signed-key.pem";

    /** Whether any TLS option was given: the agent then serves TLS only. */
    public boolean isConfigured() {
        return selfSigned || certificate != null || key != null;
    }

    /**
     * The server TLS config the options ask for, or null for none. A self-signed certificate names
     * {@code host} (unless it is a wildcard address), localhost and 127.0.0.1; it is kept in
     * {@code stateDir} and served again at the next start while it names the same and is valid for
     * another day, and its fingerprint is printed on {@code out}.
     *
     * @throws IllegalArgumentException for a wrong combination of options, saying which
     * @throws IOException when a PEM file cannot be read or the self-signed one written, naming it
     */
    public TlsConfig config(String host, PrintWriter out, Path stateDir) throws IOException {
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
            Path certFile = stateDir.resolve(SELF_SIGNED_CERT);
            Path keyFile = stateDir.resolve(SELF_SIGNED_KEY);
            X509Certificate kept = keptSelfSigned(certFile, keyFile, names);
            if (kept == null) {
                Certificates.KeyAndChain identity = Certificates.selfSigned(names, SELF_SIGNED_DAYS);
                write(keyFile, Certificates.toPem(identity.key()));
                write(certFile, Certificates.toPem(identity.certificate()));
                kept = identity.certificate();
            }
            out.println("serving TLS with the self-signed certificate " + certFile + " for " + String.join(", ", names)
                    + ", valid until " + kept.getNotAfter().toInstant() + "; clients connect with --tls-pin "
                    + Certificates.fingerprint(kept));
            out.flush();
            return TlsConfig.serverFromPem(certFile, keyFile);
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

    /** The kept self-signed certificate when it names exactly {@code names} and is valid a day more, else null. */
    private static X509Certificate keptSelfSigned(Path certFile, Path keyFile, List<String> names) throws IOException {
        if (!Files.isRegularFile(certFile) || !Files.isRegularFile(keyFile)) {
            return null;
        }
        X509Certificate kept = Certificates.readCertificates(certFile).get(0);
        boolean current = outOfDate(kept, Instant.now().plus(Duration.ofDays(1))) == null;
        return current && new HashSet<>(Certificates.hostNames(kept)).equals(new HashSet<>(names)) ? kept : null;
    }

    /** Writes a file only its owner may read (the key among them), making its directory. */
    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.US_ASCII);
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
