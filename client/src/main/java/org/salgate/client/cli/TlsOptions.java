package org.salgate.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.salgate.transport.tls.TlsConfig;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** How the client trusts a TLS agent: the system's CAs, a CA file, or one pinned certificate. */
final class TlsOptions {

    @Option(names = "--tls", scope = ScopeType.INHERIT,
            description = "Connect with TLS, trusting the system's CAs and checking the agent's host name.")
    boolean system;

    @Option(names = "--tls-ca", paramLabel = "<pem-file>", scope = ScopeType.INHERIT,
            description = "Connect with TLS, trusting only the CA certificates in this PEM file, and checking the"
                    + " agent's host name.")
    Path caFile;

    @Option(names = "--tls-pin", paramLabel = "<sha256>", scope = ScopeType.INHERIT,
            description = "Connect with TLS, accepting only the certificate with this SHA-256 fingerprint"
                    + " (as the agent prints with --tls-self-signed, or openssl x509 -fingerprint -sha256).")
    String pin;

    /** Whether any TLS option was given. */
    boolean isConfigured() {
        return system || caFile != null || pin != null;
    }

    /**
     * The client TLS config the options ask for, or null to connect without TLS.
     *
     * @throws IllegalArgumentException for more than one way of trusting, a malformed pin, or an unreadable CA file
     */
    TlsConfig config() {
        int given = (system ? 1 : 0) + (caFile != null ? 1 : 0) + (pin != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one of --tls, --tls-ca and --tls-pin");
        }
        if (pin != null) {
            return TlsConfig.clientPinned(pin);
        }
        if (caFile != null) {
            try {
                return TlsConfig.clientTrustingCa(caFile);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read --tls-ca: " + e.getMessage(), e);
            }
        }
        return system ? TlsConfig.clientTrustingSystem() : null;
    }
}
