package org.salgate.bench.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * TLS for a bench run ({@code --tls}): a self-signed certificate for 127.0.0.1 made for the run and
 * written as PEM next to its results; the server process serves it ({@code --tls-cert},
 * {@code --tls-key}) and the clients pin its fingerprint.
 */
public final class BenchTls {

    /** The server options that carry the PEM files. */
    static final String CERT_OPTION = "--tls-cert";
    static final String KEY_OPTION = "--tls-key";
    private static final int DAYS = 7;

    private final Path certificate;
    private final Path key;
    private final String pin;
    private final TlsConfig client;

    private BenchTls(Path certificate, Path key, String pin) {
        this.certificate = certificate;
        this.key = key;
        this.pin = pin;
        this.client = TlsConfig.clientPinned(pin);
    }

    /** Makes the run's certificate and writes it and its key into {@code dir}. */
    public static BenchTls create(Path dir) throws IOException {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), DAYS);
        Files.createDirectories(dir);
        Path cert = dir.resolve("tls-cert.pem");
        Path key = dir.resolve("tls-key.pem");
        Files.writeString(cert, Certificates.toPem(identity.certificate()), StandardCharsets.US_ASCII);
        Files.writeString(key, Certificates.toPem(identity.key()), StandardCharsets.US_ASCII);
        return new BenchTls(cert, key, Certificates.fingerprint(identity.certificate()));
    }

    /** The arguments that make a bench server serve this certificate. */
    public List<String> serverArgs() {
        return List.of(CERT_OPTION, certificate.toString(), KEY_OPTION, key.toString());
    }

    /** The certificate's SHA-256 fingerprint, which the clients pin; for clients in other processes. */
    public String pin() {
        return pin;
    }

    /** The clients' side: the certificate pinned. */
    public TlsConfig client() {
        return client;
    }

    /** A bench server's arguments without the TLS options, and the TLS config they name (null for none). */
    record ServerArgs(String[] rest, TlsConfig tls) {

        static ServerArgs parse(String[] args) throws IOException {
            List<String> rest = new ArrayList<>(Arrays.asList(args));
            Path cert = take(rest, CERT_OPTION);
            Path key = take(rest, KEY_OPTION);
            if ((cert == null) != (key == null)) {
                throw new IllegalArgumentException(CERT_OPTION + " and " + KEY_OPTION + " go together");
            }
            return new ServerArgs(rest.toArray(String[]::new), cert == null ? null : TlsConfig.serverFromPem(cert, key));
        }

        private static Path take(List<String> args, String option) {
            String value = takeValue(args, option, "a file");
            return value == null ? null : Path.of(value);
        }

        /** Removes {@code option} and its value from {@code args} and returns the value; null when absent. */
        static String takeValue(List<String> args, String option, String what) {
            int i = args.indexOf(option);
            if (i < 0) {
                return null;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(option + " needs " + what);
            }
            String value = args.get(i + 1);
            args.subList(i, i + 2).clear();
            return value;
        }
    }
}
